import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from './authStorage';
import { bodyOf, errorResponse, jsonResponse, jwtExpiringIn, mockFetch } from '../test/helpers';
import { portalKeys } from './portal';
import { checkPortal, getWhitelist, isFileChanged, saveWhitelist, urlOrigin, whitelistKeys } from './whitelist';

beforeEach(() => storeTokens({ id_token: jwtExpiringIn(900) }));
afterEach(() => vi.unstubAllGlobals());

const B = 'api/v1/whitelist/1/3';

describe('whitelist api', () => {
  it('calls get-whitelist, save-whitelist and check-portal', async () => {
    const fetch = mockFetch({
      [`GET ${B}/get-whitelist`]: () => jsonResponse({ whitelist: [{ url: 'https://a.example.com' }], version: '0' }),
      [`PUT ${B}/save-whitelist`]: () => jsonResponse({ whitelist: [{ url: 'https://b.example.com' }], version: 'v2' }),
      [`GET ${B}/check-portal`]: () =>
        jsonResponse({
          urls: [{ url: 'https://x.example.com/a.js', allowed: false, usedIn: [{ path: 'pages/a.html', line: 3 }] }],
          notAllowed: 1,
          scanned: 4,
        }),
    });
    expect((await getWhitelist(1, 3)).whitelist).toEqual([{ url: 'https://a.example.com' }]);
    const saved = await saveWhitelist(1, 3, { whitelist: [{ url: 'https://b.example.com' }], baseVersion: '0' });
    expect(saved.version).toBe('v2');
    expect(bodyOf(fetch, `PUT ${B}/save-whitelist`)).toEqual({
      whitelist: [{ url: 'https://b.example.com' }],
      baseVersion: '0',
    });
    const check = await checkPortal(1, 3);
    expect(check.notAllowed).toBe(1);
    expect(check.urls[0].usedIn[0]).toEqual({ path: 'pages/a.html', line: 3 });
  });

  it('tells a stale save apart', async () => {
    mockFetch({
      [`PUT ${B}/save-whitelist`]: () =>
        errorResponse(409, { errorCode: 'FILE_CHANGED', data: { path: 'whitelist.json', currentVersion: 'v9' } }),
    });
    const error = await saveWhitelist(1, 3, { whitelist: [], baseVersion: 'v1' }).catch((e: unknown) => e);
    expect(isFileChanged(error)).toBe(true);
  });

  it('keys live under the workspace prefix', () => {
    expect(whitelistKeys.list(1, 3).slice(0, 3)).toEqual([...portalKeys.workspace(1, 3)]);
    expect(whitelistKeys.check('1', '3')).toEqual(['portal', '1', '3', 'whitelist', 'check']);
  });

  it('finds the origin a URL adds', () => {
    expect(urlOrigin('https://CDN.example.com/lib/a.js?x=1')).toBe('https://cdn.example.com');
    expect(urlOrigin('//img.example.org/a.png')).toBe('https://img.example.org');
    expect(urlOrigin('http://a.example.com:8080/x')).toBe('http://a.example.com:8080');
    expect(urlOrigin('ftp://a.example.com')).toBeNull();
    expect(urlOrigin('not a url')).toBeNull();
  });
});
