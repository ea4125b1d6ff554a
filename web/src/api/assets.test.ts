import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isWorkspaceQueryKey } from '../core/workspaceRefresh';
import { bodyOf, jsonResponse, mockFetch, queryOf } from '../test/helpers';
import { signIn } from '../test/render';
import { assetApi, assetKeys, assetUrlPath, childPath, parentPath, thumbnailUrl, WIDE_THUMBNAIL } from './assets';

beforeEach(() => signIn());
afterEach(() => vi.unstubAllGlobals());

describe('asset paths', () => {
  it('drops the leading slash and escapes each segment', () => {
    expect(assetUrlPath('/')).toBe('');
    expect(assetUrlPath('/images/a b#1.png')).toBe('images/a%20b%231.png');
    expect(parentPath('/images/a.png')).toBe('/images');
    expect(parentPath('/a.png')).toBe('/');
    expect(childPath('/', 'a')).toBe('/a');
    expect(childPath('/x', 'a')).toBe('/x/a');
  });
});

describe('assetApi', () => {
  it('calls the contract paths', async () => {
    const fetch = mockFetch({
      'GET api/v1/assets/1/2/src/': () => jsonResponse({ name: '/', path: '/', type: 'DIR', children: [] }),
      'GET api/v1/assets/1/2/src/images/a.png': () => jsonResponse({ name: 'a.png' }),
      'GET api/v1/assets/1/2/src/info/images/a.png': () => jsonResponse({ width: 1, height: 2 }),
      'POST api/v1/assets/1/2/delete': () => jsonResponse([]),
      'POST api/v1/assets/1/2/folder/create': () => jsonResponse({}, 201),
      'PUT api/v1/assets/1/2/folder/rename': () => jsonResponse({}),
      'PUT api/v1/assets/1/2/file/rename': () => jsonResponse({}),
      'POST api/v1/thumbnail/1/2/token': () => jsonResponse({ token: 't', expiresIn: 600 }),
    });
    await assetApi.folder(1, 2, '/');
    await assetApi.meta(1, 2, '/images/a.png');
    expect(queryOf(fetch, 'GET api/v1/assets/1/2/src/images/a.png').get('meta')).toBe('1');
    expect(await assetApi.info(1, 2, '/images/a.png')).toEqual({ width: 1, height: 2 });
    await assetApi.remove(1, 2, ['/a.png', '/old']);
    expect(bodyOf(fetch, 'POST api/v1/assets/1/2/delete')).toEqual(['/a.png', '/old']);
    await assetApi.createFolder(1, 2, '/images/new');
    expect(bodyOf(fetch, 'POST api/v1/assets/1/2/folder/create')).toEqual(['/images/new']);
    await assetApi.renameFolder(1, 2, '/images', '/pictures');
    expect(bodyOf(fetch, 'PUT api/v1/assets/1/2/folder/rename')).toEqual({ oldPath: '/images', newPath: '/pictures' });
    await assetApi.renameFile(1, 2, '/a.png', '/b.png');
    expect(bodyOf(fetch, 'PUT api/v1/assets/1/2/file/rename')).toEqual({ oldPath: '/a.png', newPath: '/b.png' });
    expect(await assetApi.thumbnailToken(1, 2)).toEqual({ token: 't', expiresIn: 600 });
  });
});

describe('assetKeys', () => {
  it('keeps workspace-derived keys under the workspace so a reload refreshes them', () => {
    expect(isWorkspaceQueryKey(assetKeys.folder(1, 2, '/images'), 1, 2)).toBe(true);
    expect(isWorkspaceQueryKey(assetKeys.info(1, 2, '/a.png'), 1, 2)).toBe(true);
    expect(isWorkspaceQueryKey(assetKeys.thumbnailToken(1, 2), 1, 2)).toBe(true);
    expect(isWorkspaceQueryKey(assetKeys.folder(1, 2, '/'), 1, 3)).toBe(false);
    const client = new QueryClient();
    client.setQueryData(assetKeys.folder(1, 2, '/'), {});
    expect(client.getQueryCache().findAll({ queryKey: assetKeys.all(1, 2) })).toHaveLength(1);
  });
});

describe('thumbnailUrl', () => {
  it('carries the read token and the size, branch slashes as colons', () => {
    expect(thumbnailUrl(1, 2, 'feature/x', '/images/a b.png', 'tok')).toBe(
      'api/v1/thumbnail/1/2/feature%3Ax/thumbnail/images/a%20b.png?height=200&t=tok',
    );
    expect(thumbnailUrl(1, 2, 'master', '/a.png', 'tok', WIDE_THUMBNAIL)).toBe(
      'api/v1/thumbnail/1/2/master/thumbnail/a.png?width=240&height=0&t=tok',
    );
  });
});

describe('thumbnail token renewal', () => {
  it('renews a minute before expiry, at least at half the life', async () => {
    const { renewAfterMs } = await import('./assets');
    expect(renewAfterMs({ token: 't', expiresIn: 600 })).toBe(540_000);
    expect(renewAfterMs({ token: 't', expiresIn: 60 })).toBe(30_000);
    expect(renewAfterMs(undefined)).toBe(0);
  });
});
