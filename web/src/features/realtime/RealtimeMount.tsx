import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { portalApi } from '../../api/portal';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { useSessionStore } from '../../app/session/sessionStore';
import { useNotificationEvents, useWorkspaceEvents, type WorkspaceEventsOptions } from './events';
import { resetNotifications } from './notificationsStore';
import { realtimeKeys } from './queryKeys';
import { useRealtimeConnection } from './realtimeStore';
import { SOCKET_DOWN_POLL_MS, useSocketDownPolling } from './useSocketDownPolling';
import { resetFileWatcher, resetWorkspaceStore, updateFileWatcher, watcherKey } from './workspaceStore';

/**
 * The file watcher follows the open workspace: LOADING when a portal opens or the branch
 * changes, READY after the first refresh of its local changes (or the user's own
 * WORKSPACE_LOCAL_CHANGES event, whichever comes first).
 */
function useFileWatcherFollow(): void {
  const queryClient = useQueryClient();
  const domainId = useSelectionStore((s) => (s.domain ? String(s.domain.id) : null));
  const portalId = useSelectionStore((s) => (s.portal ? String(s.portal.id) : null));
  const branch = useSelectionStore((s) => s.branch);
  useEffect(() => {
    if (!domainId || !portalId || !branch) {
      resetFileWatcher(null);
      return;
    }
    const key = watcherKey(portalId, branch);
    resetFileWatcher(key);
    let live = true;
    queryClient
      .fetchQuery({
        queryKey: realtimeKeys.localChanges(domainId, portalId),
        queryFn: () => portalApi.localChanges(domainId, portalId),
        staleTime: 0,
      })
      .then(
        (status) => {
          if (live && (!status.branch || status.branch === branch)) updateFileWatcher(key, status.changes);
        },
        () => {
          // the local-changes menu reports failures; the watcher waits for the next event
        },
      );
    return () => {
      live = false;
    };
  }, [queryClient, domainId, portalId, branch]);
}

/** While the socket is down, the open portal's local commits are refetched every 10 s. */
function useLocalCommitsPolling(): void {
  const queryClient = useQueryClient();
  const loggedIn = useSessionStore((s) => s.status === 'loggedIn');
  const domainId = useSelectionStore((s) => (s.domain ? String(s.domain.id) : null));
  const portalId = useSelectionStore((s) => (s.portal ? String(s.portal.id) : null));
  useSocketDownPolling(
    () => {
      if (!domainId || !portalId) return;
      // Fetch, not just invalidate: nothing may be observing local commits while their panel
      // is closed, and polling must still learn about them.
      void queryClient
        .fetchQuery({
          queryKey: realtimeKeys.localCommits(domainId, portalId),
          queryFn: () => portalApi.localCommits(domainId, portalId),
          staleTime: 0,
        })
        .catch(() => undefined);
      void queryClient.invalidateQueries({ queryKey: realtimeKeys.localChanges(domainId, portalId) });
    },
    SOCKET_DOWN_POLL_MS,
    loggedIn && !!domainId && !!portalId,
  );
}

export type RealtimeMountProps = WorkspaceEventsOptions;

/**
 * The realtime channel of the signed-in app; renders nothing. Mount once inside the query
 * client (and router), e.g. in the signed-in shell. It connects while signed in, follows the
 * selected domain and portal rooms, turns PROGRESS messages into notification cards, applies
 * workspace / template / preference events, polls local commits while the socket is down, and
 * drives the file watcher. Cards and live workspace state are forgotten on sign-out.
 */
export function RealtimeMount({ onReloadWorkspace }: RealtimeMountProps = {}) {
  const loggedIn = useSessionStore((s) => s.status === 'loggedIn');
  useRealtimeConnection();
  useNotificationEvents();
  useWorkspaceEvents({ onReloadWorkspace });
  useLocalCommitsPolling();
  useFileWatcherFollow();
  useEffect(() => {
    if (loggedIn) return;
    resetNotifications();
    resetWorkspaceStore();
  }, [loggedIn]);
  return null;
}
