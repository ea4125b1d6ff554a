import { api } from '../../api/client';
import type { User } from '../../api/types';

/** PUT user/update: the user's details and preferences (the e-mail changes for admins only). */
export interface ProfileUpdate {
  id: User['id'];
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  optOutNotification: boolean;
}

export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

/** Profile calls (spec 1 §7 "User"; user/password and user/publickey are our design, docs/api.md). */
export const profileApi = {
  update: (body: ProfileUpdate) => api.put<User>('user/update', body),
  changePassword: (currentPassword: string, newPassword: string) =>
    api.put<void>('user/password', { currentPassword, newPassword }),
  createKey: () => api.put<KeyPair>('user/createkey'),
  setPublicKey: (publicKey: string) => api.put<User>('user/publickey', { publicKey }),
};

/** The whole update body for a user, with the given changes. */
export function updateBody(user: User, changes: Partial<Omit<ProfileUpdate, 'id'>> = {}): ProfileUpdate {
  return {
    id: user.id,
    firstName: user.firstName ?? '',
    middleName: user.middleName ?? '',
    lastName: user.lastName ?? '',
    email: user.email ?? '',
    optOutNotification: !!user.optOutNotification,
    ...changes,
  };
}

export const PROFILE_MESSAGES = {
  updated: 'Profile Updated.',
  updateFailed: 'Could Not Update your Profile',
  passwordChanged: 'Password Changed.',
  passwordFailed: 'Could Not Change your Password',
  keyFailed: 'Could Not retrieve private key',
  keySaved: 'Public Key Saved.',
} as const;
