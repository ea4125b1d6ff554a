/** The notification centre shows the loadable actions under GENERATE_LOADABLE and UPLOAD_LOADABLE cards. */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationCenter } from '../realtime/NotificationCenter';
import './register'; // the actions of a loadable's card
import { RealtimeMount } from '../realtime/RealtimeMount';
import { FakeRealtime, progress, renderApp, setUp, tearDown } from '../realtime/testing';
import { LOADABLE_MESSAGES as MSG } from './messages';
import { sampleLoadable } from './testing';

let fake: FakeRealtime;
beforeEach(() => {
  fake = setUp();
});
afterEach(() => {
  vi.useRealTimers();
  tearDown();
});

describe('loadable notification cards', () => {
  it('offer Manage Loadables, and Download once generated', async () => {
    const { router } = renderApp(
      <>
        <RealtimeMount />
        <NotificationCenter />
      </>,
    );
    const loadable = sampleLoadable();
    act(() => {
      fake.message(
        progress({
          id: 'GENERATE_LOADABLE-5',
          title: 'Loadable generated',
          status: 'SUCCESS',
          progress: 100,
          messageType: 'GENERATE_LOADABLE',
          data: {
            loadable,
            loadableId: 5,
            domainId: 1,
            portalId: 2,
            domainName: 'Demo',
            portalName: 'Passenger Portal',
          },
        }),
      );
      fake.message(
        progress({
          id: 'CREATE_PORTAL-1',
          title: 'Other',
          status: 'PROGRESS',
          progress: 10,
          messageType: 'CREATE_PORTAL',
          data: {},
        }),
      );
    });
    await userEvent.click(screen.getByRole('button', { name: /^Notifications:/, hidden: true }));
    const card = await screen.findByRole('listitem', { name: 'Loadable generated' });
    // The card's actions are registered lazily (register.ts): they show once loaded.
    expect(await within(card).findByRole('button', { name: MSG.download })).toBeInTheDocument();
    expect(
      within(screen.getByRole('listitem', { name: 'Other' })).queryByRole('button', { name: MSG.openManage }),
    ).toBeNull();
    await userEvent.click(within(card).getByRole('button', { name: MSG.openManage }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/2/branch/_/en_GB/loadables-manage'),
    );
  });
});
