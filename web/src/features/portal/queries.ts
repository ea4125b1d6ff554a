import { useQuery, type QueryClient } from '@tanstack/react-query';
import { portalApi, portalKeys } from '../../api/portal';
import { refreshWorkspaceViews } from '../../core/workspaceRefresh';
import { pollEvery, useSessionLive } from '../../core/polling';

/** Hooks of the open portal's workspace; their keys are portalKeys (api/portal.ts). */

/**
 * Local changes refresh every 10 s while a portal is open, and on window focus; the polling
 * stops when the session is over or a poll answered 401, 403 or 404 (core/polling.ts).
 */
export const LOCAL_CHANGES_INTERVAL_MS = 10_000;

export function useLocalChanges(d: string | number | undefined, p: string | number | undefined, enabled = true) {
  const live = useSessionLive();
  return useQuery({
    queryKey: portalKeys.localChanges(d ?? '', p ?? ''),
    queryFn: () => portalApi.localChanges(d ?? '', p ?? ''),
    enabled: live && enabled && d !== undefined && p !== undefined,
    refetchInterval: pollEvery(LOCAL_CHANGES_INTERVAL_MS),
    refetchOnWindowFocus: 'always',
  });
}

export function useLocalCommits(d: string | number | undefined, p: string | number | undefined, enabled = true) {
  const live = useSessionLive();
  return useQuery({
    queryKey: portalKeys.localCommits(d ?? '', p ?? ''),
    queryFn: () => portalApi.localCommits(d ?? '', p ?? ''),
    enabled: live && enabled && d !== undefined && p !== undefined,
    refetchOnWindowFocus: 'always',
  });
}

/**
 * The portal's settings on the branch (shared with the settings screen's query: same key, under
 * the workspace's, so a save, reload or branch switch reaches it).
 */
export function usePortalSettings(
  d: string | number | undefined,
  p: string | number | undefined,
  branch: string | undefined,
  enabled = true,
) {
  return useQuery({
    queryKey: portalKeys.settings(d ?? '', p ?? '', branch ?? ''),
    queryFn: () => portalApi.settings(d ?? '', p ?? ''),
    enabled: enabled && d !== undefined && p !== undefined && !!branch,
  });
}

/** Refreshes every view of the portal's workspace (after a commit; core/workspaceRefresh.ts). */
export function invalidateWorkspace(client: QueryClient, d: string | number, p: string | number) {
  return refreshWorkspaceViews(client, d, p);
}
