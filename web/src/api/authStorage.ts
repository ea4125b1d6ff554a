/**
 * Everything the session keeps in localStorage, in one place.
 * Tokens and the external-login flag are cleared on logout; the
 * terms and remember-me choices are the user's preferences and stay.
 */

export const STORAGE_KEYS = {
  idToken: 'pw.id_token',
  refreshToken: 'pw.refresh_token',
  externalLogin: 'pw.external_login',
  rememberMe: 'pw.remember_me',
  termsAccepted: 'pw.terms_accepted',
} as const;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable (private mode, quota): the session still works for this page.
  }
}

export function getIdToken(): string | null {
  return read(STORAGE_KEYS.idToken);
}

export function getRefreshToken(): string | null {
  return read(STORAGE_KEYS.refreshToken);
}

export function storeTokens(tokens: { id_token: string; refresh_token?: string | null }): void {
  write(STORAGE_KEYS.idToken, tokens.id_token);
  if (tokens.refresh_token) write(STORAGE_KEYS.refreshToken, tokens.refresh_token);
}

export function clearTokens(): void {
  write(STORAGE_KEYS.idToken, null);
  write(STORAGE_KEYS.refreshToken, null);
}

export function isExternalLogin(): boolean {
  return read(STORAGE_KEYS.externalLogin) === 'true';
}

export function setExternalLogin(value: boolean): void {
  write(STORAGE_KEYS.externalLogin, value ? 'true' : null);
}

export function getRememberMe(): boolean {
  return read(STORAGE_KEYS.rememberMe) === 'true';
}

export function setRememberMe(value: boolean): void {
  write(STORAGE_KEYS.rememberMe, value ? 'true' : 'false');
}

export function getTermsAccepted(): boolean {
  return read(STORAGE_KEYS.termsAccepted) === 'true';
}

export function setTermsAccepted(value: boolean): void {
  write(STORAGE_KEYS.termsAccepted, value ? 'true' : 'false');
}
