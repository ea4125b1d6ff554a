import { useQuery } from '@tanstack/react-query';
import { domainApi, domainKeys } from '../../api/domain';
import { permissionKeys, permissionsApi } from '../../api/permissions';
import type { Domain } from '../../api/types';
import { memberRows, type MemberRow } from './model';

/** The members of a domain with their permission groups. */
export function useMembers(domainId: Domain['id']) {
  return useQuery({
    queryKey: domainKeys.members(domainId),
    queryFn: async (): Promise<MemberRow[]> => {
      const [members, info] = await Promise.all([domainApi.members(domainId), domainApi.membersInfo(domainId)]);
      return memberRows(members, info);
    },
  });
}

/** The permission groups of a domain. */
export function useGroups(domainId: Domain['id']) {
  return useQuery({
    queryKey: permissionKeys.groups(domainId),
    queryFn: () => permissionsApi.groups(domainId),
  });
}
