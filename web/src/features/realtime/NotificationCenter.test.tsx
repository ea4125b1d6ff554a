import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToastStore } from '../../core/toastService';
import { bodyOf, errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { LIVE_LINK, PNG_1X1, samplePreview } from '../preview/testing';
// The notification cards' actions come from the features that register them.
import '../loadables/register';
import '../preview/register';
import { NotificationCenter } from './NotificationCenter';
import { RealtimeMount } from './RealtimeMount';
import { upsertNotification } from './notificationsStore';
import { FakeRealtime, progress, renderApp, setUp, tearDown } from './testing';

let fake: FakeRealtime;
beforeEach(() => {
  fake = setUp();
});
afterEach(() => {
  vi.useRealTimers();
  tearDown();
});

const shell = () => (
  <>
    <RealtimeMount />
    <NotificationCenter />
  </>
);

const bell = () => screen.getByRole('button', { name: /^Notifications:/, hidden: true });
const cards = () => within(screen.getByRole('list', { name: 'Notifications' })).getAllByRole('listitem');

describe('NotificationCenter', () => {
  it('turns PROGRESS messages into cards: new on top, known ids replaced, progress clamped', async () => {
    renderApp(shell());
    act(() => {
      fake.message(
        progress({ id: 'p1', title: 'First', status: 'PROGRESS', progress: 5, details: 'Creating the portal' }),
      );
      fake.message(progress({ id: 'p2', title: 'Second', status: 'PROGRESS', progress: 150 }));
      // a non-progress message is not a card
      fake.message({
        room: 'user-7',
        title: 'WORKSPACE_LOCAL_COMMITS',
        data: { id: 'x', status: 'PROGRESS' },
        messageType: 'NOTIFICATION',
      });
    });
    expect(bell()).toHaveAccessibleName('Notifications: 2');
    await userEvent.click(bell());
    expect(cards().map((c) => c.getAttribute('aria-label'))).toEqual(['Second', 'First']);
    const bars = screen.getAllByRole('progressbar', { name: 'Progress' });
    expect(bars[0]).toHaveAttribute('aria-valuenow', '100');
    expect(bars[1]).toHaveAttribute('aria-valuenow', '5');

    act(() =>
      fake.message(
        progress({ id: 'p1', title: 'First', status: 'PROGRESS', progress: 20, details: 'Copying the content' }),
      ),
    );
    expect(cards().map((c) => c.getAttribute('aria-label'))).toEqual(['Second', 'First']);
    expect(within(cards()[1]).getByText('Copying the content')).toBeInTheDocument();
    expect(bell()).toHaveAccessibleName('Notifications: 2');
    // cards in progress cannot be dismissed
    expect(within(cards()[1]).queryByRole('button', { name: /Dismiss/ })).toBeNull();
  });

  it('dismisses a finished card after its collapse, and clears all', async () => {
    renderApp(shell());
    act(() => {
      fake.message(
        progress({ id: 'a', title: 'Alpha', status: 'ERROR', progress: 100, details: 'Failed to create the portal.' }),
      );
      fake.message(progress({ id: 'b', title: 'Beta', status: 'PROGRESS', progress: 30 }));
      fake.message(progress({ id: 'c', title: 'Gamma', status: 'SUCCESS', progress: 100 }));
    });
    await userEvent.click(bell());
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss Alpha' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Alpha' })).toBeNull());
    expect(bell()).toHaveAccessibleName('Notifications: 2');
    await userEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(screen.getByText('No notifications')).toBeInTheDocument());
    expect(bell()).toHaveAccessibleName('Notifications: 0');
  });

  it('ticks the elapsed time every 5 s and formats it', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
    upsertNotification(
      {
        id: 'x',
        title: 'Long',
        details: '',
        status: 'PROGRESS',
        progress: 40,
        messageType: 'CREATE_PORTAL',
        data: null,
      },
      Date.now() - 55_000,
    );
    renderApp(<NotificationCenter />);
    fireEvent.click(bell());
    expect(screen.getByText(/Elapsed 55 seconds/)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByText(/Elapsed 60 seconds/)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByText(/Elapsed 1.08 minutes/)).toBeInTheDocument();
  });

  it('a created portal offers GO TO PORTAL and is announced with a toast', async () => {
    const { router } = renderApp(shell());
    act(() => {
      fake.message(
        progress({
          id: 'CREATE_PORTAL-1-Copy',
          title: 'Copy',
          status: 'PROGRESS',
          progress: 20,
          messageType: 'CREATE_PORTAL',
        }),
      );
    });
    expect(useToastStore.getState().toasts).toHaveLength(0);
    act(() => {
      fake.message(
        progress({
          id: 'CREATE_PORTAL-1-Copy',
          title: 'Copy',
          status: 'SUCCESS',
          progress: 100,
          messageType: 'CREATE_PORTAL',
          details: 'Portal created successfully',
          data: { domainId: 1, portalId: 12 },
        }),
      );
      // the same success again changes nothing
      fake.message(
        progress({
          id: 'CREATE_PORTAL-1-Copy',
          title: 'Copy',
          status: 'SUCCESS',
          progress: 100,
          messageType: 'CREATE_PORTAL',
          data: { domainId: 1, portalId: 12 },
        }),
      );
    });
    // The creating screen already toasted; the card is the realtime record of it.
    expect(useToastStore.getState().toasts).toHaveLength(0);
    await userEvent.click(bell());
    await userEvent.click(screen.getByRole('button', { name: 'GO TO PORTAL' }));
    expect(router.state.location.pathname).toBe('/domain/1/portal/12/branch/master/en_GB/dashboard');
  });

  it('offers Retry only on an error card that carries what the retry needs', async () => {
    const fetch = mockFetch({ 'POST api/v1/portal/clone/1/3': () => jsonResponse({ id: 14 }, 201) });
    renderApp(shell());
    act(() => {
      fake.message(
        progress({ id: 'e1', title: 'Plain', status: 'ERROR', progress: 100, messageType: 'CREATE_PORTAL' }),
      );
      fake.message(
        progress({
          id: 'e2',
          title: 'Retryable',
          status: 'ERROR',
          progress: 100,
          messageType: 'CREATE_PORTAL',
          data: {
            retry: { kind: 'clone', domainId: 1, sourcePortalId: 3, portal: { name: 'Retryable', type: 'CREW' } },
          },
        }),
      );
    });
    await userEvent.click(bell());
    expect(within(screen.getByRole('listitem', { name: 'Plain' })).queryByRole('button', { name: 'Retry' })).toBeNull();
    await userEvent.click(
      within(screen.getByRole('listitem', { name: 'Retryable' })).getByRole('button', { name: 'Retry' }),
    );
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0];
    expect(String(url)).toContain('api/v1/portal/clone/1/3');
    expect(JSON.parse(String(init?.body))).toMatchObject({ name: 'Retryable', type: 'CREW' });
  });

  describe('preview cards', () => {
    const retry = { domainId: 1, portalId: 2, type: 'PORTAL_LIVE', branch: 'master', language: 'en_GB', page: 'home' };
    const previewMessage = (status: string, extra: Record<string, unknown> = {}, messageType = 'CREATE_PREVIEW') =>
      progress({
        id: `${messageType}-5`,
        title: 'Live preview',
        status,
        progress: status === 'PROGRESS' ? 40 : 100,
        messageType,
        data: {
          preview: samplePreview(
            status === 'SUCCESS' ? {} : { status: status === 'ERROR' ? 'FAILED' : 'PROGRESS', link: '' },
          ),
          domainId: 1,
          portalId: 2,
          domainName: 'Demo Airline',
          portalName: 'Passenger Portal',
          retry,
          ...extra,
        },
      });

    it('show the domain and portal names, Details, and Open preview once done', async () => {
      mockFetch({
        'GET api/v1/preview/qrCode/5': () => jsonResponse({ id: 5, link: LIVE_LINK, qrCode: PNG_1X1 }),
        'GET api/v1/preview/1/2/5': () => jsonResponse(samplePreview({ status: 'PROGRESS', link: '' })),
      });
      renderApp(shell());
      act(() => fake.message(previewMessage('PROGRESS')));
      await userEvent.click(bell());
      const item = () => screen.getByRole('listitem', { name: 'Live preview' });
      expect(within(item()).getByText('Demo Airline · Passenger Portal')).toBeInTheDocument();
      expect(within(item()).getByRole('button', { name: 'Details' })).toBeInTheDocument();
      expect(within(item()).queryByRole('link', { name: 'Open preview' })).toBeNull();
      expect(within(item()).queryByRole('button', { name: 'Retry' })).toBeNull();
      expect(within(item()).queryByRole('button', { name: /Dismiss/ })).toBeNull();

      act(() => fake.message(previewMessage('SUCCESS')));
      const openLink = within(item()).getByRole('link', { name: 'Open preview' });
      expect(openLink).toHaveAttribute('href', LIVE_LINK);
      expect(openLink).toHaveAttribute('target', '_blank');
      expect(openLink).toHaveAttribute('rel', 'noopener noreferrer');
      expect(within(item()).getByRole('button', { name: 'Dismiss Live preview' })).toBeInTheDocument();

      await userEvent.click(within(item()).getByRole('button', { name: 'Details' }));
      const dialog = screen.getByRole('dialog', { name: 'Preview' });
      expect(within(dialog).getByRole('link', { name: 'Preview link' })).toHaveTextContent(LIVE_LINK);
      expect(await within(dialog).findByRole('img', { name: 'QR code of the preview link' })).toHaveAttribute(
        'src',
        `data:image/png;base64,${PNG_1X1}`,
      );
    });

    it('Retry posts the request again; a failed retry shows the error title and message', async () => {
      let fail = false;
      const fetch = mockFetch({
        'POST api/v1/preview/1/2': () =>
          fail
            ? errorResponse(409, {
                errorTitle: 'Preview refused',
                errorMessage: 'An inactive portal cannot be previewed.',
              })
            : jsonResponse(samplePreview({ status: 'PROGRESS', link: '' }), 202),
      });
      renderApp(shell());
      act(() => fake.message(previewMessage('ERROR')));
      await userEvent.click(bell());
      const item = screen.getByRole('listitem', { name: 'Live preview' });
      expect(within(item).queryByRole('link', { name: 'Open preview' })).toBeNull();
      await userEvent.click(within(item).getByRole('button', { name: 'Retry' }));
      await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
      expect(bodyOf(fetch, 'POST api/v1/preview/1/2')).toEqual({
        type: 'PORTAL_LIVE',
        branch: 'master',
        language: 'en_GB',
        page: 'home',
      });
      expect(useToastStore.getState().toasts).toHaveLength(0);

      fail = true;
      await userEvent.click(within(item).getByRole('button', { name: 'Retry' }));
      await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
      expect(useToastStore.getState().toasts[0]).toMatchObject({
        type: 'DANGER',
        title: 'Preview refused',
        message: 'An inactive portal cannot be previewed.',
      });
    });

    it('a loadable preview card renders the same, without Retry when it carries no retry', async () => {
      renderApp(shell());
      act(() => fake.message(previewMessage('ERROR', { retry: undefined }, 'CREATE_LOADABLE_PREVIEW')));
      await userEvent.click(bell());
      const item = screen.getByRole('listitem', { name: 'Live preview' });
      expect(within(item).getByText('Demo Airline · Passenger Portal')).toBeInTheDocument();
      expect(within(item).getByRole('button', { name: 'Details' })).toBeInTheDocument();
      expect(within(item).queryByRole('button', { name: 'Retry' })).toBeNull();
    });
  });
});
