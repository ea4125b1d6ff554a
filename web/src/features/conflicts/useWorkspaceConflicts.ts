import { useQuery } from '@tanstack/react-query';
import { conflictKeys, conflictsApi } from '../../api/conflicts';
import type { Id } from '../../api/portal';

/**
 * The caller's conflicts (GET /workspace-conflicts) while `enabled` (the caller has local
 * commits); undefined data otherwise, so an old answer never shows once the commits are gone.
 */
export function useWorkspaceConflicts(d: Id | undefined, p: Id | undefined, enabled: boolean) {
  const on = enabled && d !== undefined && p !== undefined;
  const query = useQuery({
    queryKey: conflictKeys.conflicts(d ?? '', p ?? ''),
    queryFn: () => conflictsApi.conflicts(d ?? '', p ?? ''),
    enabled: on,
    retry: false,
    refetchOnWindowFocus: 'always',
  });
  return { ...query, data: on ? query.data : undefined };
}
