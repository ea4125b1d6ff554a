import { useQuery, type QueryClient } from '@tanstack/react-query';
import { portalApi } from '../../api/portal';

/** Query keys and hooks of the open portal's workspace. */
export const portalKeys = {
  all: (d: string | number, p: string | number) => ['portal', String(d), String(p)] as const,
  localChanges: (d: string | number, p: string | number) => [...portalKeys.all(d, p), 'local-changes'] as const,
  localCommits: (d: string | number, p: string | number) => [...portalKeys.all(d, p), 'local-commits'] as const,
  wsChanges: (d: string | number, p: string | number, branch: string) =>
    [...portalKeys.all(d, p), 'ws-changes', branch] as const,
  categorized: (d: string | number) => ['portals', String(d), 'categorized'] as const,
  references: (d: string | number, p: string | number) => [...portalKeys.all(d, p), 'references'] as const,
};

/** Local changes refresh every 10 s while a portal is open, and on window focus. */
export const LOCAL_CHANGES_INTERVAL_MS = 10_000;

export function useLocalChanges(d: string | number | undefined, p: string | number | undefined, enabled = true) {
  return useQuery({
    queryKey: portalKeys.localChanges(d ?? '', p ?? ''),
    queryFn: () => portalApi.localChanges(d ?? '', p ?? ''),
    enabled: enabled && d !== undefined && p !== undefined,
    refetchInterval: LOCAL_CHANGES_INTERVAL_MS,
    refetchOnWindowFocus: 'always',
  });
}

export function useLocalCommits(d: string | number | undefined, p: string | number | undefined, enabled = true) {
  return useQuery({
    queryKey: portalKeys.localCommits(d ?? '', p ?? ''),
    queryFn: () => portalApi.localCommits(d ?? '', p ?? ''),
    enabled: enabled && d !== undefined && p !== undefined,
    refetchOnWindowFocus: 'always',
  });
}

/** Refetches everything of the open portal's workspace (after commit, revert, reset). */
export function invalidateWorkspace(client: QueryClient, d: string | number, p: string | number) {
  return client.invalidateQueries({ queryKey: portalKeys.all(d, p) });
}
