import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, jwtExpiringIn, loginResponse, mockFetch, textResponse } from '../test/helpers';
import { getIdToken, getRefreshToken, storeTokens } from './authStorage';
import {
  api,
  ApiError,
  authEvents,
  isFileChanged,
  NO_JWT_MESSAGE,
  requestWithResponse,
  RETRY_DELAY_MS,
  versionFromETag,
  type NotFoundEvent,
} from './client';

/** Runs a request to completion while fake timers let the retry delays pass. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS * 10);
  return outcome;
}

beforeEach(() => {
  vi.useFakeTimers();
  storeTokens({ id_token: jwtExpiringIn(900) });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('requests', () => {
  it('sends the bearer token and JSON content type to api/v1', async () => {
    const fetch = mockFetch({ 'POST api/v1/things': () => jsonResponse({ ok: true }) });
    const { value } = await settle(api.post('things', { a: 1 }));
    expect(value).toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('api/v1/things');
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe(`Bearer ${getIdToken()}`);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{"a":1}');
  });

  it('returns text bodies as text and 204 as undefined', async () => {
    mockFetch({
      'GET api/v1/config/backend-version': () => textResponse('3.4.10.42'),
      'POST api/v1/user/logout': () => new Response(null, { status: 204 }),
    });
    expect((await settle(api.get('config/backend-version'))).value).toBe('3.4.10.42');
    expect((await settle(api.post('user/logout'))).value).toBeUndefined();
  });

  it("fails without sending when there is no valid token: 'No JWT present'", async () => {
    window.localStorage.clear();
    const fetch = mockFetch({});
    const unauthorized = vi.fn();
    const stop = authEvents.on('unauthorized', unauthorized);
    const { error } = await settle(api.get('domain/'));
    stop();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errorMessage).toBe(NO_JWT_MESSAGE);
    expect(fetch).not.toHaveBeenCalled();
    expect(unauthorized).toHaveBeenCalledOnce();
  });

  it('treats an expired token as no token', async () => {
    storeTokens({ id_token: jwtExpiringIn(-10) });
    const fetch = mockFetch({});
    const { error } = await settle(api.get('domain/'));
    expect((error as ApiError).errorMessage).toBe(NO_JWT_MESSAGE);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends unauthenticated calls without a token', async () => {
    window.localStorage.clear();
    const fetch = mockFetch({ 'GET api/v1/config/features': () => jsonResponse({}) });
    await settle(api.get('config/features', { auth: false }));
    expect(new Headers(fetch.mock.calls[0][1]?.headers).has('Authorization')).toBe(false);
  });
});

describe('error parsing', () => {
  it('carries the server error object', async () => {
    mockFetch({
      'PUT api/v1/x': () =>
        errorResponse(409, {
          errorTitle: 'Conflict',
          errorMessage: 'Already there',
          errorCode: 'DUPLICATE',
          errorCodeDesc: 'Duplicate name',
          data: { field: 'name' },
          requestId: 'req-1',
        }),
    });
    const { error } = await settle(api.put('x', {}));
    expect(error).toMatchObject({
      errorTitle: 'Conflict',
      errorMessage: 'Already there',
      errorCode: 'DUPLICATE',
      errorCodeDesc: 'Duplicate name',
      httpStatus: 409,
      data: { field: 'name' },
      requestId: 'req-1',
    });
    expect((error as ApiError).serverMessage).toBe('Already there');
  });

  it("defaults to 'Error' / 'An unknown error occurred' when the body says nothing", async () => {
    mockFetch({ 'DELETE api/v1/x': () => new Response('<html>Bad gateway</html>', { status: 418 }) });
    const { error } = await settle(api.delete('x'));
    expect(error).toMatchObject({ errorTitle: 'Error', errorMessage: 'An unknown error occurred', httpStatus: 418 });
    expect((error as ApiError).serverMessage).toBeUndefined();
  });

  it('compares numeric and string error codes alike', () => {
    expect(new ApiError({ httpStatus: 403, errorCode: 149 }).hasCode('149')).toBe(true);
    expect(new ApiError({ httpStatus: 403, errorCode: '149' }).hasCode(149)).toBe(true);
    expect(new ApiError({ httpStatus: 403 }).hasCode(149)).toBe(false);
  });
});

describe('retries', () => {
  it('retries a GET 3 times on 5xx, then fails', async () => {
    const fetch = mockFetch({ 'GET api/v1/x': () => errorResponse(503) });
    const { error } = await settle(api.get('x'));
    expect(fetch).toHaveBeenCalledTimes(4);
    expect((error as ApiError).httpStatus).toBe(503);
  });

  it('waits 500 ms between attempts', async () => {
    const fetch = mockFetch({ 'GET api/v1/x': () => errorResponse(500) });
    const pending = api.get('x').catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    await pending;
  });

  it('retries a GET on network failure and succeeds when the server comes back', async () => {
    let calls = 0;
    const fetch = mockFetch({
      'GET api/v1/x': () => {
        calls += 1;
        if (calls < 3) throw new TypeError('Failed to fetch');
        return jsonResponse([1]);
      },
    });
    const { value } = await settle(api.get('x'));
    expect(value).toEqual([1]);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('reports a network failure after the retries as status 0', async () => {
    mockFetch({
      'GET api/v1/x': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const { error } = await settle(api.get('x'));
    expect(error).toMatchObject({ httpStatus: 0, errorMessage: 'An unknown error occurred' });
  });

  it('never retries a 4xx', async () => {
    const fetch = mockFetch({ 'GET api/v1/x': () => errorResponse(404) });
    await settle(api.get('x'));
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it.each(['POST', 'PUT', 'DELETE'] as const)('never retries a %s', async (method) => {
    const fetch = mockFetch({ [`${method} api/v1/x`]: () => errorResponse(500) });
    const call = method === 'POST' ? api.post('x') : method === 'PUT' ? api.put('x') : api.delete('x');
    await settle(call);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('401 handling', () => {
  it('clears the token and emits unauthorized', async () => {
    mockFetch({ 'GET api/v1/user/profile': () => errorResponse(401, { errorCode: 'UNAUTHORIZED' }) });
    const unauthorized = vi.fn();
    const expired = vi.fn();
    const stops = [authEvents.on('unauthorized', unauthorized), authEvents.on('sessionExpired', expired)];
    const { error } = await settle(api.get('user/profile'));
    stops.forEach((stop) => stop());
    expect((error as ApiError).httpStatus).toBe(401);
    expect(unauthorized).toHaveBeenCalledOnce();
    expect(expired).not.toHaveBeenCalled();
    expect(getIdToken()).toBeNull();
  });

  it('emits sessionExpired for errorCode SESSION_EXPIRED and keeps the token', async () => {
    mockFetch({ 'GET api/v1/user/profile': () => errorResponse(401, { errorCode: 'SESSION_EXPIRED' }) });
    const unauthorized = vi.fn();
    const expired = vi.fn();
    const stops = [authEvents.on('unauthorized', unauthorized), authEvents.on('sessionExpired', expired)];
    await settle(api.get('user/profile'));
    stops.forEach((stop) => stop());
    expect(expired).toHaveBeenCalledOnce();
    expect(unauthorized).not.toHaveBeenCalled();
    expect(getIdToken()).not.toBeNull();
  });

  it('does not treat a 401 of an unauthenticated call (bad login) as a logout', async () => {
    mockFetch({ 'POST api/v1/user/login': () => errorResponse(401, { errorCode: 'INVALID_CREDENTIALS' }) });
    const unauthorized = vi.fn();
    const stop = authEvents.on('unauthorized', unauthorized);
    await settle(api.post('user/login', {}, { auth: false }));
    stop();
    expect(unauthorized).not.toHaveBeenCalled();
  });
});

describe('token refresh', () => {
  it('refreshes a token that expires within 60 s before the call', async () => {
    const oldRefresh = jwtExpiringIn(3600);
    storeTokens({ id_token: jwtExpiringIn(30), refresh_token: oldRefresh });
    const renewed = loginResponse();
    const fetch = mockFetch({
      'GET api/v1/user/refresh': () => jsonResponse(renewed),
      'GET api/v1/domain/': () => jsonResponse([]),
    });
    await settle(api.get('domain/'));
    expect(fetch.mock.calls.map(([url]) => String(url))).toEqual(['api/v1/user/refresh', 'api/v1/domain/']);
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get('Authorization')).toBe(`Bearer ${oldRefresh}`);
    expect(new Headers(fetch.mock.calls[1][1]?.headers).get('Authorization')).toBe(`Bearer ${renewed.id_token}`);
    expect(getRefreshToken()).toBe(renewed.refresh_token);
  });

  it('shares one refresh between concurrent calls', async () => {
    storeTokens({ id_token: jwtExpiringIn(10), refresh_token: jwtExpiringIn(3600) });
    const fetch = mockFetch({
      'GET api/v1/user/refresh': () => jsonResponse(loginResponse()),
      'GET api/v1/a': () => jsonResponse(1),
      'GET api/v1/b': () => jsonResponse(2),
    });
    await settle(Promise.all([api.get('a'), api.get('b')]));
    expect(fetch.mock.calls.filter(([url]) => String(url) === 'api/v1/user/refresh')).toHaveLength(1);
  });

  it('logs out when the refresh fails', async () => {
    storeTokens({ id_token: jwtExpiringIn(10), refresh_token: jwtExpiringIn(3600) });
    mockFetch({ 'GET api/v1/user/refresh': () => errorResponse(401) });
    const unauthorized = vi.fn();
    const stop = authEvents.on('unauthorized', unauthorized);
    const { error } = await settle(api.get('domain/'));
    stop();
    expect((error as ApiError).errorMessage).toBe(NO_JWT_MESSAGE);
    expect(unauthorized).toHaveBeenCalledOnce();
    expect(getIdToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
  });
});

describe('binary bodies', () => {
  it('sends a Blob as it is, with its own content type', async () => {
    storeTokens({ id_token: jwtExpiringIn(3600), refresh_token: 'r' } as never);
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    const file = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' });
    await api.put('domain/1/logo', file);
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.body).toBe(file);
    expect(new Headers(init.headers).get('Content-Type')).toBe('image/png');
    vi.unstubAllGlobals();
  });
});

describe('versioned files (ETag / If-Match)', () => {
  const settings = { languageSettings: { languages: ['en_GB'] } };

  it('reads the version from the ETag of a GET', async () => {
    const fetch = mockFetch({ 'GET api/v1/settings/1/2': () => jsonResponse(settings, 200, { ETag: '"abc123"' }) });
    const { value } = await settle(api.versioned.get('settings/1/2'));
    expect(value).toEqual({ data: settings, version: 'abc123' });
    // A version must never come from the browser's cache.
    expect(fetch.mock.calls[0][1]?.cache).toBe('no-store');
  });

  it('has no version when the server sent no ETag, and "0" for a file that does not exist', async () => {
    mockFetch({
      'GET api/v1/a': () => jsonResponse(settings),
      'GET api/v1/b': () => jsonResponse(null, 200, { ETag: '"0"' }),
    });
    expect((await settle(api.versioned.get('a'))).value).toEqual({ data: settings, version: null });
    expect((await settle(api.versioned.get('b'))).value).toEqual({ data: null, version: '0' });
  });

  it('sends the version as a quoted If-Match and answers the new version', async () => {
    const fetch = mockFetch({
      'PUT api/v1/settings/1/2': ({ init }) => jsonResponse(JSON.parse(String(init.body)), 200, { ETag: '"v2"' }),
      'POST api/v1/portal/save/1/2/probeSettings': () => new Response(null, { status: 200, headers: { ETag: '"p2"' } }),
    });
    const put = await settle(api.versioned.put('settings/1/2', settings, 'v1'));
    expect(put.value).toEqual({ data: settings, version: 'v2' });
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get('If-Match')).toBe('"v1"');
    // The other headers stay: token and JSON content type.
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get('Authorization')).toMatch(/^Bearer /);
    expect(new Headers(fetch.mock.calls[0][1]?.headers).get('Content-Type')).toBe('application/json');

    const post = await settle(api.versioned.post('portal/save/1/2/probeSettings', { data: {} }, 'p1'));
    expect(post.value).toEqual({ data: undefined, version: 'p2' });
    expect(new Headers(fetch.mock.calls[1][1]?.headers).get('If-Match')).toBe('"p1"');
  });

  it('sends no If-Match without a version (the server answers 428) and never retries a write', async () => {
    const fetch = mockFetch({
      'PUT api/v1/settings/1/2': () =>
        errorResponse(428, { errorCode: 'VERSION_REQUIRED', errorMessage: 'Send the version you read.' }),
    });
    const { error } = await settle(api.versioned.put('settings/1/2', settings, null));
    expect(new Headers(fetch.mock.calls[0][1]?.headers).has('If-Match')).toBe(false);
    expect((error as ApiError).httpStatus).toBe(428);
    expect(isFileChanged(error)).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('turns 409 FILE_CHANGED into an ApiError that isFileChanged recognises, with the current version', async () => {
    mockFetch({
      'PUT api/v1/settings/1/2': () =>
        errorResponse(409, {
          errorCode: 'FILE_CHANGED',
          errorMessage: 'Portal settings were changed since you opened them.',
          data: { path: 'portal.json', currentVersion: 'v3' },
        }),
    });
    const { error } = await settle(api.versioned.put('settings/1/2', settings, 'v1'));
    expect(isFileChanged(error)).toBe(true);
    expect((error as ApiError).errorMessage).toBe('Portal settings were changed since you opened them.');
    expect((error as ApiError).data).toEqual({ path: 'portal.json', currentVersion: 'v3' });
    expect(isFileChanged(new ApiError({ httpStatus: 409, errorCode: 'GIT_CONFLICTS' }))).toBe(false);
    expect(isFileChanged(new Error('x'))).toBe(false);
  });

  it('parses strong, weak and bare entity tags', () => {
    expect(versionFromETag('"7"')).toBe('7');
    expect(versionFromETag('W/"7"')).toBe('7');
    expect(versionFromETag('7')).toBe('7');
    expect(versionFromETag('')).toBeNull();
    expect(versionFromETag(null)).toBeNull();
  });

  it('leaves the other calls as they were: data only; headers on request', async () => {
    mockFetch({ 'GET api/v1/things': () => jsonResponse({ ok: true }, 200, { ETag: '"1"', 'X-Other': 'y' }) });
    expect((await settle(api.get('things'))).value).toEqual({ ok: true });
    const { value } = await settle(requestWithResponse('things'));
    expect(value?.status).toBe(200);
    expect(value?.headers.get('X-Other')).toBe('y');
  });
});

describe('404 handling', () => {
  it('emits notFound with the path, for the app to leave a deleted portal', async () => {
    mockFetch({
      'GET api/v1/portal/1/2/local-changes': () =>
        errorResponse(404, { errorCode: 'PORTAL_NOT_FOUND', errorMessage: 'Failed to open Portal' }),
    });
    const heard: NotFoundEvent[] = [];
    const stop = authEvents.on('notFound', (event) => heard.push(event));
    const { error } = await settle(api.get('portal/1/2/local-changes', { query: { x: 1 } }));
    stop();
    expect((error as ApiError).httpStatus).toBe(404);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ path: 'portal/1/2/local-changes', method: 'GET' });
    expect(heard[0].error.hasCode('PORTAL_NOT_FOUND')).toBe(true);
  });
});
