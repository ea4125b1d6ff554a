import { describe, expect, it } from 'vitest';
import { makeJwt } from '../test/helpers';
import { base64UrlDecode, decodeToken, isTokenValid, TokenError } from './token';

describe('decodeToken', () => {
  it('returns the payload of a three-part token', () => {
    expect(decodeToken(makeJwt({ sub: 'ada', exp: 123 }))).toEqual({ sub: 'ada', exp: 123 });
  });

  it('decodes UTF-8 claims', () => {
    expect(decodeToken(makeJwt({ name: 'x' })).name).toBe('x');
    const utf8 = btoa(String.fromCharCode(...new TextEncoder().encode('{"name":"Zoë"}'))).replace(/=+$/, '');
    expect(decodeToken(`a.${utf8}.c`).name).toBe('Zoë');
  });

  it("rejects tokens without three parts with 'JWT must have 3 parts'", () => {
    expect(() => decodeToken('a.b')).toThrow(new TokenError('JWT must have 3 parts'));
    expect(() => decodeToken('a.b.c.d')).toThrow('JWT must have 3 parts');
  });

  it("rejects an impossible base64url length with 'Illegal base64url string!'", () => {
    expect(() => decodeToken('a.abcde.c')).toThrow('Illegal base64url string!');
    expect(() => base64UrlDecode('x')).toThrow('Illegal base64url string!');
  });

  it("rejects a payload that is not JSON with 'Cannot decode the token'", () => {
    const notJson = btoa('not json').replace(/=+$/, '');
    expect(() => decodeToken(`a.${notJson}.c`)).toThrow('Cannot decode the token');
  });
});

describe('isTokenValid', () => {
  const now = Date.UTC(2030, 0, 1);
  const exp = now / 1000 + 100;

  it('is false for a missing token', () => {
    expect(isTokenValid(null)).toBe(false);
    expect(isTokenValid('')).toBe(false);
  });

  it('is true while exp lies after now', () => {
    expect(isTokenValid(makeJwt({ exp }), 0, now)).toBe(true);
    expect(isTokenValid(makeJwt({ exp }), 0, now + 100_000)).toBe(false);
  });

  it('judges against now plus the offset in seconds', () => {
    expect(isTokenValid(makeJwt({ exp }), 99, now)).toBe(true);
    expect(isTokenValid(makeJwt({ exp }), 100, now)).toBe(false);
  });

  it('is false for undecodable tokens and tokens without exp', () => {
    expect(isTokenValid('garbage', 0, now)).toBe(false);
    expect(isTokenValid(makeJwt({ sub: 'x' }), 0, now)).toBe(false);
  });
});
