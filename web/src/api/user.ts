import { api } from './client';
import type {
  ConfirmResetPasswordRequest,
  Domain,
  LoginRequest,
  LoginResponse,
  ProfileResponse,
  ResetPasswordRequest,
  User,
} from './types';
import type * as gen from './types.gen';

export interface NewUser {
  userName: string;
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  admin: boolean;
}

/** PUT user/update: a user's details (admins: any user; others: themselves, e-mail fixed). */
export interface UserUpdate {
  id: User['id'];
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  admin?: boolean;
  optOutNotification?: boolean;
}

/** GET user/{id}/roles: each domain of the user with their roles there. */
export type UserDomainRoles = gen.AccessDomainRoles;

/** POST user/send-email: to the given users, or (with domainId and no users) a whole domain. */
export interface SendEmailRequest {
  domainId?: Domain['id'];
  /** Empty with a domainId: every member of the domain. */
  userIds: Array<User['id']>;
  subject: string;
  message: string;
}

export type SendEmailResult = gen.AdminEmailResult;

export type KeyPair = gen.IdentityKeyPair;

const seg = (value: string | number) => encodeURIComponent(String(value));
const list = async <T>(promise: Promise<T[] | null | undefined>): Promise<T[]> => (await promise) ?? [];

/** User calls (spec 1 §7 "User"; user/password and user/publickey are our design, docs/api.md). */
export const userApi = {
  login: (body: LoginRequest) => api.post<LoginResponse>('user/login', body, { auth: false }),
  profile: () => api.get<ProfileResponse>('user/profile'),
  logout: () => api.post<void>('user/logout'),
  resetPassword: (body: ResetPasswordRequest) => api.post<unknown>('user/reset-password', body, { auth: false }),
  /** May answer with a login response (the user is then signed in) or with no body. */
  confirmResetPassword: (body: ConfirmResetPasswordRequest) =>
    api.post<Partial<LoginResponse> | undefined>('user/confirm-reset-password', body, { auth: false }),

  list: () => list(api.get<User[]>('user/all')),
  create: (body: NewUser) => api.post<User>('user/create', body),
  update: (body: UserUpdate) => api.put<User>('user/update', body),
  remove: (id: User['id']) => api.delete<void>(`user/delete/${seg(id)}`),
  forceResetPassword: (id: User['id']) => api.post<void>('user/force-reset-password', { id }),
  sendEmail: (body: SendEmailRequest) => api.post<SendEmailResult | undefined>('user/send-email', body),
  roles: (id: User['id']) => list(api.get<UserDomainRoles[]>(`user/${seg(id)}/roles`)),

  changePassword: (currentPassword: string, newPassword: string) =>
    api.put<void>('user/password', { currentPassword, newPassword }),
  createKey: () => api.put<KeyPair>('user/createkey'),
  setPublicKey: (publicKey: string) => api.put<User>('user/publickey', { publicKey }),
};

/** Query keys of users. */
export const userKeys = {
  list: ['users', 'list'] as const,
  roles: (id: User['id']) => ['users', String(id), 'roles'] as const,
};
