import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, jwtExpiringIn, mockFetch } from '../test/helpers';
import { storeTokens } from './authStorage';
import { branchFromUrl, branchToUrl, offersReset, portalApi, type PortalSettings } from './portal';

afterEach(() => vi.unstubAllGlobals());

describe('versioned workspace files', () => {
  it('reads and writes portal settings and probe settings with their versions', async () => {
    storeTokens({ id_token: jwtExpiringIn(900) });
    const settings = { engineType: 'PORTAL_ENGINE' } as PortalSettings;
    const fetch = mockFetch({
      'GET api/v1/settings/1/2': () => jsonResponse(settings, 200, { ETag: '"s1"' }),
      'PUT api/v1/settings/1/2': () => jsonResponse(settings, 200, { ETag: '"s2"' }),
      'GET api/v1/portal/load/1/2/probeSettings': () => jsonResponse({ data: { gridSize: 8 } }, 200, { ETag: '"p1"' }),
      'POST api/v1/portal/save/1/2/probeSettings': () => new Response(null, { status: 200, headers: { ETag: '"p2"' } }),
    });
    expect(await portalApi.settings(1, 2)).toEqual({ data: settings, version: 's1' });
    expect(await portalApi.saveSettings(1, 2, settings, 's1')).toEqual({ data: settings, version: 's2' });
    expect(await portalApi.probeSettings(1, 2)).toEqual({ data: { gridSize: 8 }, version: 'p1' });
    expect(await portalApi.saveProbeSettings(1, 2, { gridSize: 9 }, 'p1')).toEqual({
      data: { gridSize: 9 },
      version: 'p2',
    });
    const ifMatch = fetch.mock.calls.map(([, init]) => new Headers(init?.headers).get('If-Match'));
    expect(ifMatch).toEqual([null, '"s1"', null, '"p1"']);
    expect(JSON.parse(String(fetch.mock.calls[3][1]?.body))).toEqual({ data: { gridSize: 9 } });
  });
});

describe('portal helpers', () => {
  it('writes a slash in a branch as a colon in URLs and back (spec 1 §2.1)', () => {
    expect(branchToUrl('feature/summer/sale')).toBe('feature:summer:sale');
    expect(branchFromUrl('feature:summer:sale')).toBe('feature/summer/sale');
    expect(branchToUrl('master')).toBe('master');
  });

  it('offers Reset exactly for the codes of spec 1 §4.2', () => {
    for (const code of ['GIT_CONFLICTS', 'PORTAL_REBASE_ERROR', 'BRANCH_DOES_NOT_EXIST_IN_PORTAL', 19, '134', 112]) {
      expect(offersReset(code)).toBe(true);
    }
    for (const code of ['PORTAL_NOT_FOUND', 'INTERNAL_ERROR', 18, '500', '', undefined, null]) {
      expect(offersReset(code)).toBe(false);
    }
  });
});
