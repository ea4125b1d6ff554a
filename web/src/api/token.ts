/**
 * JWT helpers: decoding (without verification; the server verifies) and the
 * validity rule of spec 1 §4.1: a token is valid only when present and its
 * `exp` claim (seconds) lies after now + an optional offset in seconds.
 */

export interface JwtPayload {
  exp?: number;
  iat?: number;
  sub?: string;
  [claim: string]: unknown;
}

export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenError';
  }
}

/** Decodes a base64url string to text (UTF-8). */
export function base64UrlDecode(input: string): string {
  let output = input.replace(/-/g, '+').replace(/_/g, '/');
  switch (output.length % 4) {
    case 0:
      break;
    case 2:
      output += '==';
      break;
    case 3:
      output += '=';
      break;
    default:
      throw new TokenError('Illegal base64url string!');
  }
  let binary: string;
  try {
    binary = atob(output);
  } catch {
    throw new TokenError('Illegal base64url string!');
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Returns the payload of a three-part token. Throws TokenError with the spec's messages. */
export function decodeToken<T extends JwtPayload = JwtPayload>(token: string): T {
  const parts = token.split('.');
  if (parts.length !== 3) {
    throw new TokenError('JWT must have 3 parts');
  }
  const decoded = base64UrlDecode(parts[1]);
  let payload: unknown;
  try {
    payload = JSON.parse(decoded);
  } catch {
    throw new TokenError('Cannot decode the token');
  }
  if (payload === null || typeof payload !== 'object') {
    throw new TokenError('Cannot decode the token');
  }
  return payload as T;
}

/** Expiry of the token in milliseconds since the epoch, or null when absent or unreadable. */
export function tokenExpiresAt(token: string | null | undefined): number | null {
  if (!token) return null;
  try {
    const { exp } = decodeToken(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * True when the token is present and not expired at now + offsetSeconds.
 * A token that cannot be decoded or has no exp claim is not valid.
 */
export function isTokenValid(token: string | null | undefined, offsetSeconds = 0, now: number = Date.now()): boolean {
  const expiresAt = tokenExpiresAt(token);
  return expiresAt !== null && expiresAt > now + offsetSeconds * 1000;
}

/** True when the value has the shape of a JWT (three dot-separated parts). */
export function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3;
}
