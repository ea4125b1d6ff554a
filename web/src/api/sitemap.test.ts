import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../test/render';
import { errorResponse, jsonResponse, mockFetch } from '../test/helpers';
import { portalKeys } from './portal';
import { getSitemap, sitemapKeys } from './sitemap';

beforeEach(() => signIn());
afterEach(() => vi.unstubAllGlobals());

describe('sitemap api', () => {
  it('reads GET page/{d}/{p}/sitemap with the bearer token', async () => {
    const root = { id: 'master-page', title: 'Master Page', isMaster: true, children: [{ id: 'home', title: 'Home' }] };
    const fetch = mockFetch({ 'GET api/v1/page/1/2/sitemap': () => jsonResponse(root) });
    await expect(getSitemap(1, 2)).resolves.toEqual(root);
    const init = fetch.mock.calls[0][1] as RequestInit;
    expect(new Headers(init.headers).get('Authorization')).toMatch(/^Bearer /);
  });

  it('rejects with the server message', async () => {
    mockFetch({
      'GET api/v1/page/1/2/sitemap': () => errorResponse(422, { errorMessage: 'Failed to retrieve Sitemap.' }),
    });
    await expect(getSitemap(1, 2)).rejects.toMatchObject({ errorMessage: 'Failed to retrieve Sitemap.' });
  });

  it('keys the sitemap under the workspace', () => {
    expect(sitemapKeys.sitemap(1, 2).slice(0, 3)).toEqual([...portalKeys.workspace(1, 2)]);
  });
});
