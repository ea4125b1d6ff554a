import { act, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failedRoomMessage } from '../../api/realtime';
import { useSelectionStore } from '../../core/selectionStore';
import { initialSessionState, useSessionStore } from '../../core/sessionStore';
import { preferenceKeys } from '../../api/preference';
import { ToastStack } from '../../ui/ToastStack';
import { useToastStore } from '../../core/toastService';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { RELOAD_WORKSPACE_EVENT, RELOAD_WORKSPACE_MESSAGE, type ReloadWorkspaceDetail } from './events';
import { useNotificationsStore } from './notificationsStore';
import { portalKeys } from '../../api/portal';
import { RealtimeMount } from './RealtimeMount';
import { useRealtimeStore } from './realtimeStore';
import {
  FakeRealtime,
  me,
  note,
  openPortal,
  otherUser,
  progress,
  renderApp,
  setUp,
  tearDown,
  thirdUser,
} from './testing';
import { useOtherUsersChanges, useWorkspaceStore } from './workspaceStore';
import { UPLOAD_NOTICE_GATHER_MS } from './uploadNotices';

let fake: FakeRealtime;
beforeEach(() => {
  fake = setUp();
  mockFetch({
    'GET api/v1/portal/1/3/local-changes': () =>
      jsonResponse({ branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 }),
    'GET api/v1/portal/1/4/local-changes': () =>
      jsonResponse({ branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 }),
  });
});
afterEach(tearDown);

const change = (user: typeof otherUser, extra: Record<string, unknown> = {}) => ({
  user,
  aheadCount: 0,
  behindCount: 0,
  hasChanges: true,
  branch: 'master',
  domainName: 'Ops',
  portalName: 'Crew Portal',
  changes: { 'pages/home.json': 'MODIFY' },
  ...extra,
});
const commit = (user: { id: number }, branch = 'master') => ({
  domainId: 1,
  portalId: 3,
  branch,
  commitId: 'c1',
  user,
});
const reloadToasts = () => useToastStore.getState().toasts.filter((t) => t.message === RELOAD_WORKSPACE_MESSAGE);

describe('RealtimeMount connection', () => {
  it('connects and joins the user room while signed in, follows domain and portal rooms, disconnects on sign-out', async () => {
    renderApp(<RealtimeMount />);
    expect(fake.connect).toHaveBeenCalledTimes(1);
    expect(fake.joins).toEqual(['user-7']);
    act(() => fake.open());
    expect(useRealtimeStore.getState().status).toBe('CONNECTED');

    act(() => openPortal('master', 3));
    expect(fake.joins).toEqual(['user-7', 'domain-1', 'portal-3']);
    act(() => openPortal('master', 4));
    expect(fake.leaves).toEqual(['portal-3']);
    expect(fake.joins.at(-1)).toBe('portal-4');
    expect([...fake.rooms].sort()).toEqual(['domain-1', 'portal-4', 'user-7']);

    act(() => useSessionStore.setState({ ...initialSessionState, status: 'loggedOut' }));
    expect(fake.disconnect).toHaveBeenCalled();
    expect(fake.rooms.size).toBe(0);
    expect(fake.listenerCount).toBe(2); // the message hooks stay subscribed; nothing arrives while disconnected
    expect(useRealtimeStore.getState().status).toBe('DISCONNECTED');
  });

  it('closes the socket (and stops reconnecting) when another sign-in took the session', () => {
    renderApp(<RealtimeMount />);
    act(() => fake.open());
    expect(fake.disconnect).not.toHaveBeenCalled();
    act(() => useSessionStore.setState({ sessionConflict: true }));
    expect(fake.disconnect).toHaveBeenCalled();
    expect(useRealtimeStore.getState().status).toBe('DISCONNECTED');
  });

  it('shows the failed-room message as a danger toast, and not other errors', () => {
    renderApp(<RealtimeMount />);
    act(() => {
      fake.emit({ type: 'ERROR', message: 'Room portal-3 could not be joined: forbidden' });
      fake.emit({ type: 'ERROR', message: failedRoomMessage('portal-3', 'joined') });
    });
    const toasts = useToastStore.getState().toasts;
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({
      type: 'DANGER',
      message: 'After many failed attempts, room portal-3 could not be joined. Disconnecting WebSockets',
    });
  });

  it('forgets cards on sign-out', () => {
    renderApp(<RealtimeMount />);
    act(() => fake.message(progress({ id: 'a', status: 'PROGRESS', progress: 1 })));
    expect(useNotificationsStore.getState().cards).toHaveLength(1);
    act(() => useSessionStore.setState({ ...initialSessionState, status: 'loggedOut' }));
    expect(useNotificationsStore.getState().cards).toHaveLength(0);
  });
});

describe('workspace events', () => {
  it('prompts to reload only for another user committing to my branch; Reload Now reopens, then refreshes every workspace view', async () => {
    const order: string[] = [];
    const opened = {
      portal: { id: 3, name: 'Crew Portal', scope: 'FULL', type: 'CREW', status: 'active', activeBranch: 'master' },
      branch: 'master',
      settings: {
        engineType: 'PORTAL_ENGINE',
        supportLevel: 'FULL',
        scope: 'FULL',
        languageSettings: { languages: ['en_GB', 'fr_FR'], defaultLanguage: 'en_GB', languageMode: 'MULTILANGUAGE' },
      },
      settingsVersion: '2',
      status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
    };
    mockFetch({
      'GET api/v1/portal/1/3/local-changes': () =>
        jsonResponse({ branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 }),
      'GET api/v1/portal/1/3/open': () => {
        order.push('open');
        return jsonResponse(opened);
      },
    });
    const onReload = vi.fn();
    const heard: ReloadWorkspaceDetail[] = [];
    const listener = (e: Event) => heard.push((e as CustomEvent<ReloadWorkspaceDetail>).detail);
    window.addEventListener(RELOAD_WORKSPACE_EVENT, listener);
    openPortal('master', 3);
    const { queryClient } = renderApp(
      <>
        <RealtimeMount onReloadWorkspace={onReload} />
        <ToastStack />
      </>,
    );
    // A settings query of the workspace (not on screen) and one of another portal.
    queryClient.setQueryData(['portal', '1', '3', 'settings', 'master'], { data: {}, version: '1' });
    queryClient.setQueryData(['portal', '1', '4', 'settings', 'master'], { data: {}, version: '1' });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockImplementation(async () => {
      order.push('invalidate');
    });
    act(() => {
      fake.message(note('portal-3', 'WORKSPACE_COMMIT', commit(me))); // my own commit
      fake.message(note('portal-3', 'WORKSPACE_COMMIT', commit(otherUser, 'feature/x'))); // another branch
      fake.message(note('portal-4', 'WORKSPACE_COMMIT', { ...commit(otherUser), portalId: 4 })); // another portal
    });
    expect(reloadToasts()).toHaveLength(0);

    act(() => {
      fake.message(note('portal-3', 'WORKSPACE_COMMIT', commit(otherUser)));
      fake.message(note('portal-3', 'WORKSPACE_COMMIT', { ...commit(thirdUser), commitId: 'c2' }));
    });
    expect(reloadToasts()).toHaveLength(1); // not stacked
    expect(screen.getByText(RELOAD_WORKSPACE_MESSAGE)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reload Now' }));
    await waitFor(() => expect(onReload).toHaveBeenCalledWith({ domainId: '1', portalId: '3', branch: 'master' }));
    expect(heard).toEqual([{ domainId: '1', portalId: '3', branch: 'master' }]);
    // The workspace is opened again first (the server fast-forwards it), then the views reload.
    expect(order).toEqual(['open', 'invalidate']);
    const { predicate } = invalidate.mock.calls[0][0] as unknown as {
      predicate: (q: { queryKey: readonly unknown[] }) => boolean;
    };
    expect(predicate({ queryKey: portalKeys.localChanges('1', '3') })).toBe(true);
    expect(predicate({ queryKey: ['portal', '1', '3', 'settings', 'master'] })).toBe(true);
    expect(predicate({ queryKey: ['portal', '1', '4', 'settings', 'master'] })).toBe(false);
    // Views not on screen are dropped, so they load afresh when shown.
    expect(queryClient.getQueryData(['portal', '1', '3', 'settings', 'master'])).toBeUndefined();
    expect(queryClient.getQueryData(['portal', '1', '4', 'settings', 'master'])).toBeDefined();
    // The selection's copy of the settings is the reopened workspace's.
    expect(useSelectionStore.getState().portalInfo?.languages).toEqual(['en_GB', 'fr_FR']);
    window.removeEventListener(RELOAD_WORKSPACE_EVENT, listener);
  });

  it("keeps other users' changes per portal: an update replaces that user's entry, news go to the front", () => {
    openPortal('master', 3);
    renderApp(<RealtimeMount />);
    const { result } = renderHook(() => useOtherUsersChanges(3));
    act(() => {
      fake.message(note('portal-3', 'WORKSPACE_LOCAL_CHANGES', change(otherUser)));
      fake.message(note('portal-3', 'WORKSPACE_LOCAL_CHANGES', change(thirdUser)));
      fake.message(note('portal-3', 'WORKSPACE_LOCAL_CHANGES', change(me))); // mine: not an other user's
    });
    expect(result.current.map((c) => c.user.id)).toEqual([11, 9]);
    act(() => fake.message(note('portal-3', 'WORKSPACE_LOCAL_CHANGES', change(otherUser, { aheadCount: 2 }))));
    expect(result.current.map((c) => [c.user.id, c.aheadCount])).toEqual([
      [9, 2],
      [11, 0],
    ]);
    // my commit puts the others on my branch one commit further behind
    act(() => fake.message(note('portal-3', 'WORKSPACE_COMMIT', commit(me))));
    expect(result.current.map((c) => c.behindCount)).toEqual([1, 1]);
    expect(useWorkspaceStore.getState().otherUsersChanges['4']).toBeUndefined();
  });

  it('refreshes the banner on PREFERENCE_UPDATED, templates on TEMPLATE_CREATED, commits on WORKSPACE_LOCAL_COMMITS', () => {
    const { queryClient } = renderApp(<RealtimeMount />);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    act(() => {
      fake.message(note('*', 'PREFERENCE_UPDATED', { id: 1, bannerStatus: 'BANNER_ON', bannerMessage: 'Hi' }));
      fake.message(note('domain-1', 'TEMPLATE_CREATED', { id: 5, templateName: 'Ops base' }));
      fake.message(
        note('user-7', 'WORKSPACE_LOCAL_COMMITS', { domainId: 1, portalId: 3, branch: 'master', aheadCount: 1 }),
      );
    });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: preferenceKeys.all });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['portals-admin', '1', 'templates'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['portal', '1', '3', 'local-commits'] });
  });
});

describe('RealtimeMount upload notices', () => {
  const upload = (user: { id: number }, file: string, uploadPath = '/images') => ({
    file,
    uploadPath,
    branch: 'master',
    user: { ...user, firstName: 'Olga', lastName: 'Other' },
    domain: 'Ops',
    portal: 'Crew Portal',
  });
  const infoToasts = () =>
    useToastStore
      .getState()
      .toasts.filter((t) => t.type === 'INFO')
      .map((t) => t.message);

  it("gathers another user's uploads to the open portal into one toast; mine and other portals' are not shown", () => {
    vi.useFakeTimers();
    try {
      openPortal('master', 3);
      renderApp(<RealtimeMount />);
      act(() => {
        fake.message(note('portal-3', 'ASSET_UPLOADED', upload(otherUser, 'a.png')));
        fake.message(note('portal-3', 'ASSET_UPLOADED', upload(otherUser, 'b.png')));
        fake.message(note('portal-3', 'ASSET_UPLOADED', upload(otherUser, 'c.png')));
        fake.message(note('portal-3', 'ASSET_UPLOADED', upload(me, 'mine.png')));
        fake.message(note('portal-4', 'ASSET_UPLOADED', upload(otherUser, 'elsewhere.png')));
      });
      expect(infoToasts()).toEqual([]);
      act(() => vi.advanceTimersByTime(UPLOAD_NOTICE_GATHER_MS));
      expect(infoToasts()).toEqual(['Olga Other uploaded 3 files to /images (master)']);
      act(() => fake.message(note('portal-3', 'ASSET_UPLOADED', upload(otherUser, 'd.png', '/docs'))));
      act(() => vi.advanceTimersByTime(UPLOAD_NOTICE_GATHER_MS));
      expect(infoToasts().at(-1)).toBe('Olga Other uploaded d.png to /docs (master)');
    } finally {
      vi.useRealTimers();
    }
  });
});
