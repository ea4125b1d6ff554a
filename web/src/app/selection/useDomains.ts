import { useQuery } from '@tanstack/react-query';
import { domainApi } from '../../api/domain';
import type { Domain } from '../../api/types';

export const DOMAINS_QUERY_KEY = ['domains'] as const;

const byName = (a: Domain, b: Domain) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** The domains the signed-in user may see (GET /api/v1/domain/), ordered by name. */
export function useDomains() {
  return useQuery({
    queryKey: DOMAINS_QUERY_KEY,
    queryFn: domainApi.list,
    select: (domains: Domain[]) => [...domains].sort(byName),
  });
}
