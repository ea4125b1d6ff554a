import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToastStore } from '../../app/toasts/toastService';
import { jsonResponse, mockFetch } from '../../test/helpers';
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
});
