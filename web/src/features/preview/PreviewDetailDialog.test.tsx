import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, useToastStore } from '../../core/toastService';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { PREVIEW_DIALOG_SIZE, PREVIEW_MESSAGES as MSG } from './messages';
import { PreviewDetailDialog } from './PreviewDetailDialog';
import { LIVE_LINK, PNG_1X1, samplePreview } from './testing';

beforeEach(() => {
  signIn();
  clearToasts();
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearToasts();
});

describe('PreviewDetailDialog', () => {
  it('shows the link (new tab), its QR code and the facts, in the spec size', async () => {
    const fetch = mockFetch({
      'GET api/v1/preview/qrCode/5': () => jsonResponse({ id: 5, link: LIVE_LINK, qrCode: PNG_1X1 }),
    });
    const onClose = vi.fn();
    renderWithProviders(
      <PreviewDetailDialog
        preview={samplePreview({ type: 'PORTAL_LOCKED', commitId: 'abcdef1234567890' })}
        onClose={onClose}
      />,
    );
    expect(PREVIEW_DIALOG_SIZE).toEqual({ width: 350, height: 400 });
    const dialog = screen.getByRole('dialog', { name: 'Preview' });
    const link = within(dialog).getByRole('link', { name: 'Preview link' });
    expect(link).toHaveAttribute('href', LIVE_LINK);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveTextContent(LIVE_LINK);
    const img = await within(dialog).findByRole('img', { name: MSG.qrAlt });
    expect(img).toHaveAttribute('src', `data:image/png;base64,${PNG_1X1}`);
    expect(within(dialog).getByText('Locked preview')).toBeInTheDocument();
    expect(within(dialog).getByText('abcdef1234')).toBeInTheDocument();
    expect(within(dialog).getByText('master')).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('copies the link', async () => {
    mockFetch({ 'GET api/v1/preview/qrCode/5': () => jsonResponse({ id: 5, link: LIVE_LINK, qrCode: PNG_1X1 }) });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<PreviewDetailDialog preview={samplePreview()} onClose={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: MSG.copyLink }));
    expect(writeText).toHaveBeenCalledWith(LIVE_LINK);
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain(MSG.linkCopied);
  });

  it('a preview in progress has no link yet and is read again until ready', async () => {
    const ready = samplePreview();
    let reads = 0;
    mockFetch({
      'GET api/v1/preview/1/2/5': () => {
        reads++;
        return jsonResponse(reads === 1 ? samplePreview({ status: 'PROGRESS', link: '' }) : ready);
      },
      'GET api/v1/preview/qrCode/5': () => jsonResponse({ id: 5, link: LIVE_LINK, qrCode: PNG_1X1 }),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderWithProviders(
        <PreviewDetailDialog preview={samplePreview({ status: 'PROGRESS', link: '' })} onClose={() => {}} />,
      );
      expect(screen.getByRole('status')).toHaveTextContent(MSG.notReady);
      expect(screen.queryByRole('link', { name: 'Preview link' })).toBeNull();
      await vi.advanceTimersByTimeAsync(6000);
      await waitFor(() => expect(screen.getByRole('link', { name: 'Preview link' })).toBeInTheDocument());
      expect(await screen.findByRole('img', { name: MSG.qrAlt })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failed preview shows its error', () => {
    mockFetch({});
    renderWithProviders(
      <PreviewDetailDialog
        preview={samplePreview({
          status: 'FAILED',
          link: '',
          error: { errorTitle: 'Build failed', errorMessage: 'npm exited with 1' },
        })}
        onClose={() => {}}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Build failed: npm exited with 1');
    expect(screen.queryByRole('img')).toBeNull();
  });
});
