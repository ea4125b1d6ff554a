import { api } from './client';
import type { Domain, User } from './types';
import type * as gen from './types.gen';

export type PermissionGroup = gen.AccessGroup;

const seg = (value: string | number) => encodeURIComponent(String(value));
const list = async <T>(promise: Promise<T[] | null | undefined>): Promise<T[]> => (await promise) ?? [];

/** Roles and permission groups (spec 1 §7 "Permissions"). */
export const permissionsApi = {
  addRole: (user: User['id'], domain: Domain['id'], role: string) =>
    api.put<void>(`permissions/updateRoles/${seg(user)}/${seg(domain)}/${seg(role)}`),
  removeRole: (user: User['id'], domain: Domain['id'], role: string) =>
    api.delete<void>(`permissions/updateRoles/${seg(user)}/${seg(domain)}/${seg(role)}`),
  groups: (domain: Domain['id']) => list(api.get<PermissionGroup[]>(`permissions/getGroups/${seg(domain)}`)),
  catalogue: () => list(api.get<string[]>('permissions/catalogue')),
  createGroup: (domain: Domain['id'], groupName: string, permissions: string[]) =>
    api.post<PermissionGroup>(`permissions/createGroup/${seg(domain)}`, { groupName, permissions }),
  updatePermissions: (domain: Domain['id'], group: string, permissions: string[]) =>
    api.put<unknown>(`permissions/updatePermissions/${seg(domain)}/${seg(group)}`, permissions),
  deleteGroup: (domain: Domain['id'], group: string) =>
    api.delete<void>(`permissions/deleteGroup/${seg(domain)}/${seg(group)}`),
};

export const permissionKeys = {
  groups: (domain: Domain['id']) => ['domain', String(domain), 'groups'] as const,
  catalogue: ['permissions', 'catalogue'] as const,
};
