import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../test/render';
import { bodyOf, errorResponse, jsonResponse, mockFetch, noContent, queryOf } from '../test/helpers';
import { isPreview, previewApi, previewKeys, renewPreviewAfterMs, type Preview } from './preview';

beforeEach(() => signIn());
afterEach(() => vi.unstubAllGlobals());

const samplePreview: Preview = {
  id: 5,
  type: 'PORTAL_LIVE',
  status: 'READY',
  domainId: 1,
  portalId: 2,
  userId: 1,
  domainName: 'Demo Airline',
  portalName: 'Passenger Portal',
  branch: 'master',
  commitId: '',
  language: 'en_GB',
  page: '',
  link: 'http://host/api/v1/preview/pwv1.abc/1/2/PORTAL_LIVE/master/index.html#/home',
  createdAt: '2026-11-22T10:00:00Z',
  expiresAt: '2026-11-23T10:00:00Z',
  error: null,
};

describe('preview api', () => {
  it('mints a token with POST workspace/{d}/{p}/token and the bearer token', async () => {
    const answer = { token: 'pwp1.x', expiresIn: 1800, base: '/api/v1/workspace/pwp1.x/1/2/' };
    const fetch = mockFetch({ 'POST api/v1/workspace/1/2/token': () => jsonResponse(answer) });
    await expect(previewApi.token(1, 2)).resolves.toEqual(answer);
    const init = fetch.mock.calls[0][1] as RequestInit;
    expect(new Headers(init.headers).get('Authorization')).toMatch(/^Bearer /);
  });

  it('rejects with the server error', async () => {
    mockFetch({ 'POST api/v1/workspace/1/2/token': () => errorResponse(403, { errorMessage: 'No right' }) });
    await expect(previewApi.token(1, 2)).rejects.toMatchObject({ errorMessage: 'No right' });
  });

  it('renews a minute before expiry, never sooner than 5 s', () => {
    expect(renewPreviewAfterMs({ expiresIn: 1800 })).toBe(1740_000);
    expect(renewPreviewAfterMs({ expiresIn: 10 })).toBe(5000);
    expect(renewPreviewAfterMs(null)).toBe(5000);
  });

  it('creates a preview with POST preview/{d}/{p} and the body as given', async () => {
    const fetch = mockFetch({
      'POST api/v1/preview/1/2': () => jsonResponse({ ...samplePreview, status: 'PROGRESS', link: '' }, 202),
    });
    const body = { type: 'PORTAL_LOCKED' as const, branch: 'feature/x', language: 'fr_FR', page: 'home' };
    await expect(previewApi.create(1, 2, body)).resolves.toMatchObject({ id: 5, status: 'PROGRESS' });
    expect(bodyOf(fetch, 'POST api/v1/preview/1/2')).toEqual(body);
    const init = fetch.mock.calls[0][1] as RequestInit;
    expect(new Headers(init.headers).get('Authorization')).toMatch(/^Bearer /);
  });

  it('passes on the 409 refusals with their error code', async () => {
    mockFetch({
      'POST api/v1/preview/1/2': () =>
        errorResponse(409, {
          errorTitle: "Can't open live preview",
          errorMessage: 'The workspace is on another branch.',
          errorCode: 'LIVE_PREVIEW_UNAVAILABLE',
        }),
    });
    const error = await previewApi.create(1, 2, { type: 'PORTAL_LIVE' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ httpStatus: 409, errorCode: 'LIVE_PREVIEW_UNAVAILABLE' });
  });

  it('reads the latest preview of a type, null when there is none', async () => {
    const fetch = mockFetch({ 'GET api/v1/preview/1/2/latest': () => jsonResponse(null) });
    await expect(previewApi.latest(1, 2, 'PORTAL_LIVE')).resolves.toBeNull();
    expect(queryOf(fetch, 'GET api/v1/preview/1/2/latest').get('type')).toBe('PORTAL_LIVE');

    const all = mockFetch({ 'GET api/v1/preview/1/2/latest': () => jsonResponse(samplePreview) });
    await expect(previewApi.latest(1, 2)).resolves.toEqual(samplePreview);
    expect(queryOf(all, 'GET api/v1/preview/1/2/latest').has('type')).toBe(false);
  });

  it('gets, removes and reads the QR code of a preview', async () => {
    const fetch = mockFetch({
      'GET api/v1/preview/1/2/5': () => jsonResponse(samplePreview),
      'DELETE api/v1/preview/1/2/5': () => noContent(),
      'GET api/v1/preview/qrCode/5': () => jsonResponse({ id: 5, link: samplePreview.link, qrCode: 'iVBORw0KGgo=' }),
    });
    await expect(previewApi.get(1, 2, 5)).resolves.toEqual(samplePreview);
    await expect(previewApi.remove(1, 2, 5)).resolves.toBeUndefined();
    await expect(previewApi.qrCode(5)).resolves.toMatchObject({ qrCode: 'iVBORw0KGgo=' });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('keys and the shape check', () => {
    expect(previewKeys.latest(1, 2, 'PORTAL_LIVE')).toEqual(['preview', '1', '2', 'latest', 'PORTAL_LIVE']);
    expect(previewKeys.latest('1', '2', 'PORTAL_LOCKED').slice(0, 3)).toEqual([...previewKeys.portal(1, 2)]);
    expect(isPreview(samplePreview)).toBe(true);
    expect(isPreview({ ...samplePreview, status: 'DONE' })).toBe(false);
    expect(isPreview(null)).toBe(false);
  });
});
