import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../test/render';
import { errorResponse, jsonResponse, mockFetch } from '../test/helpers';
import { previewApi, renewPreviewAfterMs } from './preview';

beforeEach(() => signIn());
afterEach(() => vi.unstubAllGlobals());

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
});
