import { api } from './client';
import type {
  ConfirmResetPasswordRequest,
  LoginRequest,
  LoginResponse,
  ProfileResponse,
  ResetPasswordRequest,
} from './types';

/** User calls (spec 1 §7 "User"). */
export const userApi = {
  login: (body: LoginRequest) => api.post<LoginResponse>('user/login', body, { auth: false }),
  profile: () => api.get<ProfileResponse>('user/profile'),
  logout: () => api.post<void>('user/logout'),
  resetPassword: (body: ResetPasswordRequest) => api.post<unknown>('user/reset-password', body, { auth: false }),
  /** May answer with a login response (the user is then signed in) or with no body. */
  confirmResetPassword: (body: ConfirmResetPasswordRequest) =>
    api.post<Partial<LoginResponse> | undefined>('user/confirm-reset-password', body, { auth: false }),
};
