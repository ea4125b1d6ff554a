import { vi } from 'vitest';

/** An unsigned JWT with the given claims (the client never verifies signatures). */
export function makeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

/** A JWT that expires `seconds` from now. */
export const jwtExpiringIn = (seconds: number) => makeJwt({ sub: '1', exp: Math.floor(Date.now() / 1000) + seconds });

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function textResponse(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'text/plain' } });
}

export function errorResponse(status: number, fields: Record<string, unknown> = {}): Response {
  return jsonResponse({ errorTitle: 'Failed', errorMessage: 'It failed', httpStatus: status, ...fields }, status);
}

type Handler = (request: { url: string; method: string; init: RequestInit }) => Response | Promise<Response>;

/**
 * Replaces fetch with a router keyed by "METHOD path" (path without the
 * query string, e.g. "POST api/v1/user/login"). Unknown calls answer 404.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const spy = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const key = `${method} ${url.split('?')[0]}`;
    const handler = routes[key];
    if (!handler) return jsonResponse({ errorMessage: `No mock for ${key}` }, 404);
    return handler({ url, method, init });
  });
  vi.stubGlobal('fetch', spy);
  return spy;
}

export const sampleUser = {
  id: 7,
  firstName: 'Ada',
  middleName: '',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  userName: 'ada',
  admin: false,
  lastLoggedIn: null,
  optOutNotification: false,
  publicKey: null,
};

export function loginResponse(user = sampleUser) {
  return {
    id_token: jwtExpiringIn(900),
    refresh_token: jwtExpiringIn(86400),
    expires_in: 900,
    profile: { user },
  };
}

export const noContent = () => new Response(null, { status: 204 });

type FetchSpy = { mock: { calls: unknown[][] } };

/** The one call to `key` ("METHOD path") of a mockFetch spy: its URL and init. */
function callOf(fetch: FetchSpy, key: string): { url: string; init: RequestInit | undefined } {
  const [method, path] = key.split(' ');
  const call = fetch.mock.calls.find(([url, init]) => {
    const m = ((init as RequestInit | undefined)?.method ?? 'GET').toUpperCase();
    return m === method && String(url).split('?')[0] === path;
  });
  if (!call) throw new Error(`no call to ${key}`);
  return { url: String(call[0]), init: call[1] as RequestInit | undefined };
}

/** The JSON body of the call to `key` ("METHOD path"). */
export function bodyOf(fetch: FetchSpy, key: string): unknown {
  const body = callOf(fetch, key).init?.body;
  return body === undefined || body === null ? undefined : JSON.parse(String(body));
}

/** The query string of the call to `key` ("METHOD path"). */
export function queryOf(fetch: FetchSpy, key: string): URLSearchParams {
  return new URLSearchParams(callOf(fetch, key).url.split('?')[1] ?? '');
}

/** Whether `key` ("METHOD path") was called. */
export function called(fetch: FetchSpy, key: string): boolean {
  try {
    callOf(fetch, key);
    return true;
  } catch {
    return false;
  }
}

/**
 * A readiness report of the caller's workspace (GET api/v1/readiness/{d}/{p}) holding `findings`
 * (each given its id, severity 'error' and a message unless set), for the editors' marks.
 */
export function readinessAnswer(findings: Array<Record<string, unknown>>): Response {
  const full = findings.map((f, i) => ({ id: `f${i}`, severity: 'error', message: `finding ${i}`, path: '', ...f }));
  const count = (s: string) => full.filter((f) => f.severity === s).length;
  return jsonResponse({
    source: 'workspace',
    branch: 'master',
    commitId: 'c1',
    findings: full,
    ignored: [],
    summary: {
      errors: count('error'),
      warnings: count('warning'),
      infos: count('info'),
      ignored: 0,
      files: new Set(full.map((f) => f.path)).size,
      byRule: {},
    },
    checkedAt: '2024-01-01T00:00:00Z',
    durationMs: 1,
  });
}
