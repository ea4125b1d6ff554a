import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { LivePreviewUnavailableOverlay } from './LivePreviewUnavailableOverlay';

describe('LivePreviewUnavailableOverlay', () => {
  it("says the live preview can't be opened, to contact the Domain Administrator, and closes with OK", async () => {
    const onClose = vi.fn();
    renderWithProviders(<LivePreviewUnavailableOverlay open onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: "Can't open live preview" });
    expect(dialog).toHaveTextContent('The live preview workspace has changed and cannot be opened as it is.');
    expect(dialog).toHaveTextContent('If the error persists, please contact the Domain Administrator.');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("shows the server's reason, and the contact line once", () => {
    const reason = 'Your workspace is on another branch. If the error persists, contact the Domain Administrator.';
    renderWithProviders(<LivePreviewUnavailableOverlay open message={reason} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: "Can't open live preview" });
    expect(dialog).toHaveTextContent(reason);
    expect(dialog.textContent?.match(/Domain Administrator/g)).toHaveLength(1);
  });

  it('is not shown while closed', () => {
    renderWithProviders(<LivePreviewUnavailableOverlay open={false} onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
