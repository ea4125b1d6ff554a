import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyOf, jsonResponse, mockFetch, queryOf } from '../test/helpers';
import { signIn } from '../test/render';
import { isStaleItem, pageKeys, pagesApi } from './pages';
import { portalKeys } from './portal';
import { sitemapKeys } from './sitemap';

afterEach(() => vi.unstubAllGlobals());

describe('pagesApi', () => {
  it("reads the sitemap with sitemap.json's version from the ETag ('' without one)", async () => {
    signIn();
    mockFetch({
      'GET api/v1/page/1/2/sitemap': () => jsonResponse({ id: 'master-page', children: [] }, 200, { ETag: '"s7"' }),
      'GET api/v1/page/1/3/sitemap': () => jsonResponse({ id: 'master-page', children: [] }),
    });
    expect(await pagesApi.sitemap(1, 2)).toEqual({ root: { id: 'master-page', children: [] }, sitemapVersion: 's7' });
    expect((await pagesApi.sitemap(1, 3)).sitemapVersion).toBe('');
  });

  it('sends the versions of a delete in the query and batch items as they are', async () => {
    signIn();
    const fetch = mockFetch({
      'DELETE api/v1/page/1/2/news': () => jsonResponse({ id: 'news', sitemapVersion: 's2' }),
      'POST api/v1/portal/1/2/batch': () => jsonResponse([{ file: 'home', version: 'v2' }]),
    });
    await pagesApi.remove(1, 2, 'news', 's1', 'f1');
    expect(Object.fromEntries(queryOf(fetch, 'DELETE api/v1/page/1/2/news'))).toEqual({
      sitemapVersion: 's1',
      version: 'f1',
    });
    await pagesApi.batch(1, 2, [{ file: 'home', data: '<p/>', type: 'page', version: '' }]);
    expect(bodyOf(fetch, 'POST api/v1/portal/1/2/batch')).toEqual([
      { file: 'home', data: '<p/>', type: 'page', version: '' },
    ]);
  });

  it('keys pages under the workspace and the versioned sitemap under the sitemap', () => {
    expect(pageKeys.page(1, 2, 'home').slice(0, 3)).toEqual(portalKeys.workspace(1, 2));
    expect(pageKeys.versionedSitemap(1, 2).slice(0, 4)).toEqual(sitemapKeys.sitemap(1, 2));
  });

  it('tells a stale batch item', () => {
    expect(
      isStaleItem({
        file: 'a',
        error: { errorCode: 'FILE_CHANGED', errorTitle: '', errorMessage: '', httpStatus: 409 },
      }),
    ).toBe(true);
    expect(
      isStaleItem({
        file: 'a',
        error: { errorCode: 'PAGE_NOT_FOUND', errorTitle: '', errorMessage: '', httpStatus: 404 },
      }),
    ).toBe(false);
    expect(isStaleItem({ file: 'a', version: '2' })).toBe(false);
  });
});
