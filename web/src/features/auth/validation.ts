/**
 * Client rules and messages of the sign-in forms (spec 1 §5.1, §8). The
 * message strings are the spec's own wording.
 */
import type { ApiError } from '../../api/errors';
import { MAX_USERNAME_LENGTH, MESSAGES, MIN_PASSWORD_LENGTH, passwordLength, required } from '../../lib/validation';

export { MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH };

export const AUTH_MESSAGES = {
  missingCredentials: MESSAGES.missingCredentials,
  usernameTooLong: `Username can have at most ${MAX_USERNAME_LENGTH} characters.`,
  incorrectCredentials: 'Incorrect Username or Password.',
  unknownLoginError: 'Unknown error. Please contact administrator.',
  required: MESSAGES.fieldRequired,
  requiredPassword: 'The field is Required.',
  resetPasswordTooShort: MESSAGES.passwordLength,
  passwordHint: `Your password needs to be at least ${MIN_PASSWORD_LENGTH} characters`,
  mustMatch: 'The field needs to match the inserted password.',
  resetSuccess: 'Please check your email for the password reset link',
  resetFailureTitle: 'Could not reset password',
  oneTimeFailure: 'Unknown Error occured',
  creatingPassword: 'Creating new password',
  confirmRequired: MESSAGES.confirmPassword,
  confirmFailure: 'Password or Token was invalid, try again.',
} as const;

/** How long the reset request's success message stays (spec 1 §8: 5 s). */
export const RESET_SUCCESS_VISIBLE_MS = 5000;

// ---------------------------------------------------------------------------
// Login

/** The login form's client check; null when the request may be sent. */
export function validateLogin(username: string, password: string): string | null {
  if (!username.trim() || !password) return AUTH_MESSAGES.missingCredentials;
  if (username.length > MAX_USERNAME_LENGTH) return AUTH_MESSAGES.usernameTooLong;
  return null;
}

export type LoginFailure =
  | { kind: 'message'; message: string }
  /** 403 with error code 149: the password must be replaced with the one-time form. */
  | { kind: 'oneTimeReset'; message: string };

/**
 * What the login form shows for a failed login (spec 1 §8, with 401 as the
 * server's answer to bad credentials alongside the spec's 500).
 */
export function describeLoginFailure(error: ApiError): LoginFailure {
  switch (error.httpStatus) {
    case 400:
      return { kind: 'message', message: AUTH_MESSAGES.missingCredentials };
    case 401:
    case 500:
      return { kind: 'message', message: AUTH_MESSAGES.incorrectCredentials };
    case 403:
      return error.hasCode(149)
        ? { kind: 'oneTimeReset', message: error.serverMessage ?? '' }
        : { kind: 'message', message: error.errorMessage };
    case 429:
      return { kind: 'message', message: error.errorMessage };
    default:
      return { kind: 'message', message: AUTH_MESSAGES.unknownLoginError };
  }
}

// ---------------------------------------------------------------------------
// Reset password request

export interface ResetPasswordValues {
  username: string;
  newPassword: string;
}

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

export function validateResetPassword(values: ResetPasswordValues): FieldErrors<ResetPasswordValues> {
  const errors: FieldErrors<ResetPasswordValues> = {};
  const username = required(values.username);
  if (username) errors.username = username;
  if (!values.newPassword) errors.newPassword = AUTH_MESSAGES.requiredPassword;
  else if (passwordLength(values.newPassword)) errors.newPassword = AUTH_MESSAGES.resetPasswordTooShort;
  return errors;
}

/** '{title}. {message}' built from 'Could not reset password' and the server's message. */
export function describeResetFailure(error: ApiError): string {
  return `${AUTH_MESSAGES.resetFailureTitle}. ${error.errorMessage}`;
}

// ---------------------------------------------------------------------------
// One-time password form

export interface OneTimeResetValues {
  oneTimePassword: string;
  newPassword: string;
  confirmPassword: string;
}

export function validateOneTimeReset(values: OneTimeResetValues): FieldErrors<OneTimeResetValues> {
  const errors: FieldErrors<OneTimeResetValues> = {};
  if (!values.oneTimePassword) errors.oneTimePassword = AUTH_MESSAGES.required;
  if (!values.newPassword) errors.newPassword = AUTH_MESSAGES.required;
  else if (passwordLength(values.newPassword)) errors.newPassword = AUTH_MESSAGES.passwordHint;
  if (!values.confirmPassword) errors.confirmPassword = AUTH_MESSAGES.required;
  else if (values.confirmPassword !== values.newPassword) errors.confirmPassword = AUTH_MESSAGES.mustMatch;
  return errors;
}

export function describeOneTimeFailure(error: ApiError): string {
  return error.serverMessage ?? AUTH_MESSAGES.oneTimeFailure;
}

// ---------------------------------------------------------------------------
// Confirm password reset

export function validateConfirmPassword(confirmPassword: string): string | null {
  return confirmPassword ? null : AUTH_MESSAGES.confirmRequired;
}

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;
