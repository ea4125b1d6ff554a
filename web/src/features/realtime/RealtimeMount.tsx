import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { portalApi, portalKeys } from '../../api/portal';
import { useSelectionStore } from '../../core/selectionStore';
import { useWorkspaceEpoch } from '../../core/workspaceRefresh';
import { isFinalError, sessionLive, useSessionLive } from '../../core/polling';
import { useSessionStore } from '../../core/sessionStore';
import { useNotificationEvents, useWorkspaceEvents, type WorkspaceEventsOptions } from './events';
import { resetNotifications } from './notificationsStore';
import { useRealtimeConnection } from './realtimeStore';
import { SOCKET_DOWN_POLL_MS, useSocketDownPolling } from './useSocketDownPolling';
import { resetFileWatcher, resetWorkspaceStore, updateFileWatcher, watcherKey } from './workspaceStore';

/**
 * The file watcher follows the open workspace: LOADING when a portal opens, the branch changes
 * or the workspace changed under it (Reload Now, revert, Reset: the workspace epoch), READY
 * after the first refresh of its local changes (or the user's own WORKSPACE_LOCAL_CHANGES
 * event, whichever comes first). Nothing is fetched once the session is over.
 */
function useFileWatcherFollow(): void {
  const queryClient = useQueryClient();
  const live = useSessionLive();
  const domainId = useSelectionStore((s) => (s.domain ? String(s.domain.id) : null));
  const portalId = useSelectionStore((s) => (s.portal ? String(s.portal.id) : null));
  const branch = useSelectionStore((s) => s.branch);
  const epoch = useWorkspaceEpoch((s) => s.epoch);
  useEffect(() => {
    if (!live || !domainId || !portalId || !branch) {
      resetFileWatcher(null);
      return;
    }
    const key = watcherKey(portalId, branch);
    resetFileWatcher(key);
    let current = true;
    queryClient
      .fetchQuery({
        queryKey: portalKeys.localChanges(domainId, portalId),
        queryFn: () => portalApi.localChanges(domainId, portalId),
        staleTime: 0,
      })
      .then(
        (status) => {
          if (current && (!status.branch || status.branch === branch)) updateFileWatcher(key, status.changes);
        },
        () => {
          // the local-changes menu reports failures; the watcher waits for the next event
        },
      );
    return () => {
      current = false;
    };
  }, [queryClient, live, domainId, portalId, branch, epoch]);
}

/**
 * While the socket is down, the open portal's local commits are refetched every 10 s; never
 * after the session ended, and not after a poll answered 401, 403 or 404 (the portal is gone:
 * core/portalGone.ts leaves it).
 */
function useLocalCommitsPolling(): void {
  const queryClient = useQueryClient();
  const live = useSessionLive();
  const domainId = useSelectionStore((s) => (s.domain ? String(s.domain.id) : null));
  const portalId = useSelectionStore((s) => (s.portal ? String(s.portal.id) : null));
  // The portal whose poll was refused for good (401, 403, 404): not polled again until it is
  // opened again (which moves the workspace epoch on).
  const epoch = useWorkspaceEpoch((s) => s.epoch);
  const [refused, setRefused] = useState<string | null>(null);
  const pollKey = `${domainId}/${portalId}#${epoch}`;
  useSocketDownPolling(
    () => {
      if (!domainId || !portalId || !sessionLive()) return;
      // Fetch, not just invalidate: nothing may be observing local commits while their panel
      // is closed, and polling must still learn about them.
      void queryClient
        .fetchQuery({
          queryKey: portalKeys.localCommits(domainId, portalId),
          queryFn: () => portalApi.localCommits(domainId, portalId),
          staleTime: 0,
        })
        .catch((error: unknown) => {
          if (isFinalError(error)) setRefused(pollKey);
        });
      void queryClient.invalidateQueries({ queryKey: portalKeys.localChanges(domainId, portalId) });
    },
    SOCKET_DOWN_POLL_MS,
    live && !!domainId && !!portalId && refused !== pollKey,
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
