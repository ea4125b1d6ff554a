import { api } from '../../api/client';

/** GET domain/{id}/account-meta: the summary of a domain for its dashboard. */
export interface AccountMeta {
  id: number | string;
  name: string;
  memberCount: number;
  groupCount: number;
  hasLogo?: boolean;
  createdAt?: string;
}

/** A member of a domain (GET domain/users/{id}). */
export interface DomainMember {
  id: number | string;
  userName: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  admin?: boolean;
}

export interface SendEmailRequest {
  domainId: number | string;
  /** Empty: every member of the domain. */
  userIds: Array<number | string>;
  subject: string;
  message: string;
}

export interface SendEmailResult {
  queued: number;
  noEmail?: string[] | null;
}

const id = (value: string | number) => encodeURIComponent(String(value));

/** The domain area's calls (spec 1 §7 "Domain"; send-email under "User"). */
export const domainCalls = {
  accountMeta: (domainId: string) => api.get<AccountMeta>(`domain/${id(domainId)}/account-meta`),
  /** The domain's logo as an image blob; rejects with status 404 when it has none. */
  logo: (domainId: string) => api.get<Blob>(`domain/${id(domainId)}/logo`, { responseType: 'blob' }),
  members: async (domainId: string) => (await api.get<DomainMember[] | null>(`domain/users/${id(domainId)}`)) ?? [],
  sendEmail: (body: SendEmailRequest) => api.post<SendEmailResult>('user/send-email', body),
};

export const memberLabel = (m: DomainMember) => {
  const name = [m.firstName, m.lastName].filter((p) => p && p.trim()).join(' ');
  return name ? `${name} (${m.userName})` : m.userName;
};
