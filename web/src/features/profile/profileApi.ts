import type { User } from '../../api/types';
import type { UserUpdate } from '../../api/user';

/** The profile's update body (PUT user/update; the e-mail changes for admins only). */
export type ProfileUpdate = Omit<UserUpdate, 'admin'> & { optOutNotification: boolean };

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
