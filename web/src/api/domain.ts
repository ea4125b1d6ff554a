import { api } from './client';
import type { Domain, User } from './types';
import type * as gen from './types.gen';

/** A member of a domain (GET domain/users/{id}), and a candidate to add (GET domain/{id}/candidates). */
export interface DomainMember {
  id: User['id'];
  userName: string;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  email?: string | null;
  admin?: boolean;
}

/** GET domain/usersInfo/{id}: each member's permission groups. */
export interface DomainMemberInfo {
  userId: User['id'];
  accountGroups: Array<{ groupName: string }>;
}

/** GET domain/{id}/account-meta: the summary of a domain for its dashboard. */
export type AccountMeta = gen.AccessAccountMeta;

const seg = (value: string | number) => encodeURIComponent(String(value));
const list = async <T>(promise: Promise<T[] | null | undefined>): Promise<T[]> => (await promise) ?? [];

/** Domain calls (spec 1 §7 "Domain"). */
export const domainApi = {
  /** The domains the signed-in user may see, in server order (possibly empty). */
  list: () => list(api.get<Domain[]>('domain/')),
  create: (name: string) => api.post<Domain>('domain/', { name }),
  rename: (id: Domain['id'], name: string) => api.put<Domain>(`domain/${seg(id)}`, { name }),
  remove: (id: Domain['id']) => api.delete<void>(`domain/${seg(id)}`),
  accountMeta: (id: Domain['id']) => api.get<AccountMeta>(`domain/${seg(id)}/account-meta`),
  /** The domain's logo as an image blob; rejects with status 404 when it has none. */
  logo: (id: Domain['id']) => api.get<Blob>(`domain/${seg(id)}/logo`, { responseType: 'blob' }),
  /** Uploads the logo as the raw image body (PNG, JPEG, GIF or WebP, at most 512 KB). */
  setLogo: (id: Domain['id'], file: Blob) => api.put<void>(`domain/${seg(id)}/logo`, file),
  removeLogo: (id: Domain['id']) => api.delete<void>(`domain/${seg(id)}/logo`),
  members: (id: Domain['id']) => list(api.get<DomainMember[]>(`domain/users/${seg(id)}`)),
  membersInfo: (id: Domain['id']) => list(api.get<DomainMemberInfo[]>(`domain/usersInfo/${seg(id)}`)),
  /** Users who may be added to the domain (admins and holders of domain_user_create). */
  candidates: (id: Domain['id']) => list(api.get<DomainMember[]>(`domain/${seg(id)}/candidates`)),
  addMember: (domain: Domain['id'], user: User['id']) => api.post<void>(`domain/${seg(domain)}/addUser`, { id: user }),
  removeMember: (domain: Domain['id'], user: User['id']) =>
    api.delete<void>(`domain/deleteUser/${seg(domain)}/${seg(user)}`),
};

/** Query keys of domains: the list, and everything of one domain under ['domain', id]. */
export const domainKeys = {
  list: ['domains'] as const,
  one: (id: Domain['id']) => ['domain', String(id)] as const,
  members: (id: Domain['id']) => ['domain', String(id), 'members'] as const,
  candidates: (id: Domain['id']) => ['domain', String(id), 'candidates'] as const,
  logo: (id: Domain['id']) => ['domain', String(id), 'logo'] as const,
  accountMeta: (id: Domain['id']) => ['domain', String(id), 'account-meta'] as const,
  portals: (id: Domain['id']) => ['domain', String(id), 'portals'] as const,
};

/** 'First Last (userName)', or the user name alone. */
export const memberLabel = (m: DomainMember) => {
  const name = [m.firstName, m.lastName].filter((p) => p && p.trim()).join(' ');
  return name ? `${name} (${m.userName})` : m.userName;
};
