/**
 * Calls of the Administration area (docs/api.md; spec 1 §7, spec 3 §7
 * "Admin-related"). Every call goes through the one HTTP client.
 */
import { api } from '../../api/client';
import type { Domain, User } from '../../api/types';

export type BannerStatus = 'BANNER_ON' | 'BANNER_OFF';

export interface Preference {
  id: number | string;
  /** 'BANNER_ON' / 'BANNER_OFF'; older data may say 'ON' / 'OFF' (spec 1 §3). */
  bannerStatus: string;
  bannerMessage: string | null;
}

export interface NewUser {
  userName: string;
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  admin: boolean;
}

export interface UserUpdate {
  id: User['id'];
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  admin: boolean;
  optOutNotification?: boolean;
}

export interface UserDomainRoles {
  domainId: number | string;
  domainName: string;
  roles: string[];
}

export interface DomainMember {
  id: number | string;
  userName: string;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  email?: string | null;
  admin?: boolean;
}

export interface DomainMemberInfo {
  userId: number | string;
  accountGroups: Array<{ groupName: string }>;
}

export interface PermissionGroup {
  id?: number | string;
  groupName: string;
  permissions: string[];
}

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'held' | 'skipped';
export const OUTBOX_STATUSES: readonly OutboxStatus[] = ['pending', 'sending', 'sent', 'failed', 'held', 'skipped'];

export interface OutboxMail {
  id: number | string;
  kind?: string;
  userId?: number | string | null;
  to: string;
  toName?: string;
  subject: string;
  text: string;
  status: OutboxStatus;
  attempts: number;
  lastError?: string;
  createdAt: string;
  sentAt?: string | null;
}

export interface LookupEntry {
  key: string;
  value: string;
}

export const HISTORY_CATEGORIES = ['SIGN_IN', 'USER', 'DOMAIN', 'GROUP', 'PREFERENCE'] as const;
export type HistoryCategory = (typeof HISTORY_CATEGORIES)[number];

export interface HistoryEntry {
  id: number | string;
  at: string;
  category: string;
  historyType: string;
  userId?: number | string | null;
  userName?: string;
  domainId?: number | string | null;
  entity?: string;
  entityId?: string;
  details?: string;
  clientAddr?: string;
}

const list = async <T>(promise: Promise<T[] | null | undefined>): Promise<T[]> => (await promise) ?? [];
const seg = (value: string | number) => encodeURIComponent(String(value));

export const adminApi = {
  // Preference
  preferences: () => list(api.get<Preference[]>('preference/all')),
  updatePreference: (body: { id: Preference['id']; bannerStatus: BannerStatus; bannerMessage: string }) =>
    api.put<Preference>('preference/update', body),

  // Users
  users: () => list(api.get<User[]>('user/all')),
  createUser: (body: NewUser) => api.post<User>('user/create', body),
  updateUser: (body: UserUpdate) => api.put<User>('user/update', body),
  deleteUser: (id: User['id']) => api.delete<void>(`user/delete/${seg(id)}`),
  forceResetPassword: (id: User['id']) => api.post<void>('user/force-reset-password', { id }),
  sendEmail: (body: { userIds: Array<User['id']>; subject: string; message: string }) =>
    api.post<unknown>('user/send-email', body),
  userRoles: (id: User['id']) => list(api.get<UserDomainRoles[]>(`user/${seg(id)}/roles`)),

  // Roles and permission groups
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

  // Domains
  domains: () => list(api.get<Domain[]>('domain/')),
  createDomain: (name: string) => api.post<Domain>('domain/', { name }),
  renameDomain: (id: Domain['id'], name: string) => api.put<Domain>(`domain/${seg(id)}`, { name }),
  deleteDomain: (id: Domain['id']) => api.delete<void>(`domain/${seg(id)}`),
  /** Uploads the logo as the raw image body (PNG, JPEG, GIF or WebP, at most 512 KB). */
  setLogo: (id: Domain['id'], file: Blob) => api.put<void>(`domain/${seg(id)}/logo`, file),
  removeLogo: (id: Domain['id']) => api.delete<void>(`domain/${seg(id)}/logo`),
  members: (id: Domain['id']) => list(api.get<DomainMember[]>(`domain/users/${seg(id)}`)),
  membersInfo: (id: Domain['id']) => list(api.get<DomainMemberInfo[]>(`domain/usersInfo/${seg(id)}`)),
  addMember: (domain: Domain['id'], user: User['id']) => api.post<void>(`domain/${seg(domain)}/addUser`, { id: user }),
  removeMember: (domain: Domain['id'], user: User['id']) =>
    api.delete<void>(`domain/deleteUser/${seg(domain)}/${seg(user)}`),

  // Mail outbox (design)
  outbox: (status: OutboxStatus | '', limit = 200) =>
    list(api.get<OutboxMail[]>('admin/outbox', { query: { status: status || undefined, limit } })),
  retryMail: (id: OutboxMail['id']) => api.post<unknown>(`admin/outbox/${seg(id)}/retry`),

  // Audit history
  historyTypes: (category: HistoryCategory) =>
    list(api.get<LookupEntry[]>(`lookup/type/historyType/category/${seg(category)}`)),
  history: (historyType: string) =>
    list(
      api.get<HistoryEntry[]>('lookup/accounts/0/0/entities/ALL/history', {
        query: { historyType: historyType || undefined },
      }),
    ),
};

/** Query keys of the area; the banner shares the preference key (app/shell/BannerSlot). */
export const adminKeys = {
  users: ['admin', 'users'] as const,
  userRoles: (id: User['id']) => ['admin', 'users', String(id), 'roles'] as const,
  domains: ['domains'] as const,
  members: (id: Domain['id']) => ['admin', 'domains', String(id), 'members'] as const,
  groups: (id: Domain['id']) => ['admin', 'domains', String(id), 'groups'] as const,
  catalogue: ['admin', 'catalogue'] as const,
  outbox: (status: string) => ['admin', 'outbox', status] as const,
  historyTypes: (category: string) => ['admin', 'historyTypes', category] as const,
  history: (type: string) => ['admin', 'history', type] as const,
};
