import { useQuery } from '@tanstack/react-query';
import { domainApi, domainKeys } from '../api/domain';
import type { Domain } from '../api/types';

const byName = (a: Domain, b: Domain) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** The domains the signed-in user may see (GET /api/v1/domain/), ordered by name. */
export function useDomains() {
  return useQuery({
    queryKey: domainKeys.list,
    queryFn: domainApi.list,
    select: (domains: Domain[]) => [...domains].sort(byName),
  });
}
