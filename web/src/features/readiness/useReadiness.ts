import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Id } from '../../api/portal';
import { readinessApi, readinessKeys, type Finding, type ReadinessReport } from '../../api/readiness';

/**
 * The caller's workspace readiness (issue 29): one query per portal that every screen shares
 * (the Readiness screen, the dashboard card, the editors' marks). READINESS_CHANGED for the
 * caller refreshes it (handleReadinessMessage); workspace reloads drop it with the workspace key.
 */
export function useWorkspaceReadiness(domain: Id | undefined, portal: Id | undefined, enabled = true) {
  return useQuery<ReadinessReport>({
    queryKey: readinessKeys.workspace(domain ?? '', portal ?? ''),
    queryFn: () => readinessApi.workspace(domain!, portal!),
    enabled: enabled && domain !== undefined && portal !== undefined && domain !== '' && portal !== '',
    staleTime: 30_000,
  });
}

/** Findings of the report by path (no leading slash). */
export function findingsByPath(report: ReadinessReport | undefined): Map<string, Finding[]> {
  const out = new Map<string, Finding[]>();
  for (const f of report?.findings ?? []) {
    const list = out.get(f.path);
    if (list) list.push(f);
    else out.set(f.path, [f]);
  }
  return out;
}

/** The caller's findings, indexed by path, from the shared query. */
export function useFindingsByPath(domain: Id | undefined, portal: Id | undefined, enabled = true) {
  const q = useWorkspaceReadiness(domain, portal, enabled);
  return useMemo(() => findingsByPath(q.data), [q.data]);
}

/** The caller's findings in one file (path with or without a leading slash). */
export function useFileFindings(domain: Id | undefined, portal: Id | undefined, path: string | null | undefined) {
  const byPath = useFindingsByPath(domain, portal, !!path);
  return useMemo(() => (path ? (byPath.get(path.replace(/^\/+/, '')) ?? []) : []), [byPath, path]);
}
