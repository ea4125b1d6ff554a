/**
 * The one HTTP client every feature uses (spec 1 §7, "Calls").
 *
 * - Paths are relative to the API base path `api/v1/`, resolved against the
 *   page's base URL so the app works at `/` and under a sub-path.
 * - Every call sends the JSON content type. Authenticated calls carry
 *   `Authorization: Bearer <token>` from localStorage; the token is refreshed
 *   first when it expires within 60 s. With no valid token the call fails with
 *   'No JWT present' and nothing is sent.
 * - GET requests are retried 3 times, 500 ms apart, on network failure or a
 *   status of 500 and above. Nothing else is retried (never a 4xx, never a
 *   POST, PUT or DELETE: those are not safe to repeat).
 * - Failures reject with ApiError. A 401 on an authenticated call clears the
 *   token and emits `unauthorized`; a 401 with errorCode SESSION_EXPIRED emits
 *   `sessionExpired` instead (the session store shows the conflict dialog).
 *   A 404 emits `notFound` with the path (the app leaves a portal that was deleted).
 * - Versioned files (whole-file saves such as portal settings): `versioned.get`
 *   answers `{data, version}` with the version read from the response's ETag;
 *   `versioned.put` / `versioned.post` send it back as `If-Match` and answer the
 *   new version. A stale version is refused with 409 FILE_CHANGED (isFileChanged),
 *   a missing one with 428 VERSION_REQUIRED; nothing is ever overwritten silently.
 *   `requestWithResponse` gives any call its response headers and status.
 */
import { clearTokens, getIdToken, getRefreshToken, storeTokens } from './authStorage';
import { ApiError, errorFromResponse, toApiError } from './errors';
import { isTokenValid } from './token';
import type { LoginResponse } from './types';

export { ApiError } from './errors';

export const API_BASE = 'api/v1/';
export const RETRY_COUNT = 3;
export const RETRY_DELAY_MS = 500;
/** An access token expiring within this many seconds is refreshed before use. */
export const REFRESH_MARGIN_SECONDS = 60;
export const NO_JWT_MESSAGE = 'No JWT present';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON, or as it is when it is a Blob/File (uploads). */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Base the path is relative to; '' for static files next to index.html. */
  base?: string;
  /** 'auto' (default) parses JSON when the response says so, text otherwise; 'blob' for binary bodies. */
  responseType?: 'auto' | 'json' | 'text' | 'blob';
  signal?: AbortSignal;
  /** The browser cache mode (versioned reads use 'no-store': a version must never come from a cache). */
  cache?: RequestCache;
  /** Let the request outlive the page (a presence DELETE sent on `pagehide`). */
  keepalive?: boolean;
}

// ---------------------------------------------------------------------------
// Session events

export interface NotFoundEvent {
  /** The request path relative to the base, without the query string (e.g. 'portal/1/2/local-changes'). */
  path: string;
  method: HttpMethod;
  error: ApiError;
}

export interface AuthEventMap {
  unauthorized: ApiError;
  sessionExpired: ApiError;
  tokensRefreshed: LoginResponse;
  notFound: NotFoundEvent;
}

type Listener<K extends keyof AuthEventMap> = (payload: AuthEventMap[K]) => void;
const listeners: { [K in keyof AuthEventMap]: Set<Listener<K>> } = {
  unauthorized: new Set(),
  sessionExpired: new Set(),
  tokensRefreshed: new Set(),
  notFound: new Set(),
};

export const authEvents = {
  on<K extends keyof AuthEventMap>(type: K, listener: Listener<K>): () => void {
    listeners[type].add(listener);
    return () => {
      listeners[type].delete(listener);
    };
  },
  emit<K extends keyof AuthEventMap>(type: K, payload: AuthEventMap[K]): void {
    for (const listener of [...listeners[type]]) listener(payload);
  },
};

// ---------------------------------------------------------------------------
// Tokens

let refreshInFlight: Promise<LoginResponse> | null = null;

/**
 * Exchanges the refresh token for a new token pair (GET user/refresh with the
 * refresh token as bearer) and stores it. Concurrent callers share one request.
 */
export function refreshTokens(): Promise<LoginResponse> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) return Promise.reject(noJwtError());
  refreshInFlight ??= request<LoginResponse>('user/refresh', {
    auth: false,
    headers: { Authorization: `Bearer ${refreshToken}` },
  })
    .then((response) => {
      storeTokens(response);
      authEvents.emit('tokensRefreshed', response);
      return response;
    })
    .finally(() => {
      refreshInFlight = null;
    });
  return refreshInFlight;
}

function noJwtError(): ApiError {
  return new ApiError({ httpStatus: 0, errorMessage: NO_JWT_MESSAGE, errorCodeDesc: 'NO_JWT' });
}

/**
 * A usable access token, refreshed when near expiry; rejects with 'No JWT present'. Exported
 * for the calls fetch cannot make (upload progress needs XMLHttpRequest: api/assets.ts).
 */
export async function accessToken(): Promise<string> {
  let token = getIdToken();
  if (!isTokenValid(token, REFRESH_MARGIN_SECONDS) && getRefreshToken()) {
    try {
      token = (await refreshTokens()).id_token;
    } catch {
      // A failed refresh ends the session.
      clearTokens();
      token = null;
    }
  }
  if (!token || !isTokenValid(token)) {
    const error = noJwtError();
    authEvents.emit('unauthorized', error);
    throw error;
  }
  return token;
}

// ---------------------------------------------------------------------------
// Requests

function buildUrl(base: string, path: string, query: RequestOptions['query']): string {
  let url = base + path.replace(/^\/+/, '');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  if (search) url += (url.includes('?') ? '&' : '?') + search;
  return url;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function parseBody<T>(response: Response, responseType: RequestOptions['responseType']): Promise<T> {
  if (responseType === 'blob') return (response.status === 204 ? undefined : await response.blob()) as T;
  const text = await response.text();
  if (response.status === 204 || text === '') return undefined as T;
  const isJson =
    responseType === 'json' ||
    (responseType !== 'text' && (response.headers.get('Content-Type') ?? '').includes('json'));
  return (isJson ? JSON.parse(text) : text) as T;
}

/** What a 401 means for the app: the session-conflict dialog, or signed out. The realtime
 * client calls it too when the server closes the socket because the session ended. */
export function handleUnauthorized(error: ApiError): void {
  if (error.hasCode('SESSION_EXPIRED')) {
    authEvents.emit('sessionExpired', error);
    return;
  }
  clearTokens();
  authEvents.emit('unauthorized', error);
}

/** A successful answer with its status and headers (e.g. the ETag of a versioned file). */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** Like request, but answers the status and headers too. */
export async function requestWithResponse<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const method = options.method ?? 'GET';
  const authenticated = options.auth !== false;
  const headers = new Headers({
    'Content-Type': 'application/json',
    Accept: 'application/json, text/plain, */*',
    ...options.headers,
  });
  if (authenticated) headers.set('Authorization', `Bearer ${await accessToken()}`);

  // A Blob or File (an upload) is sent as it is, with its own type; everything else as JSON.
  const binary = options.body instanceof Blob;
  if (binary && !options.headers?.['Content-Type']) {
    headers.set('Content-Type', (options.body as Blob).type || 'application/octet-stream');
  }
  const url = buildUrl(options.base ?? API_BASE, path, options.query);
  const init: RequestInit = {
    method,
    headers,
    body: options.body === undefined ? undefined : binary ? (options.body as Blob) : JSON.stringify(options.body),
    credentials: 'same-origin',
    signal: options.signal,
  };
  if (options.cache) init.cache = options.cache;
  if (options.keepalive) init.keepalive = true;
  const retries = method === 'GET' ? RETRY_COUNT : 0;

  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      if (attempt < retries) {
        await sleep(RETRY_DELAY_MS);
        continue;
      }
      throw toApiError(cause);
    }

    if (response.ok)
      return {
        data: await parseBody<T>(response, options.responseType),
        status: response.status,
        headers: response.headers,
      };
    if (response.status >= 500 && attempt < retries) {
      await sleep(RETRY_DELAY_MS);
      continue;
    }

    const error = errorFromResponse(
      response.status,
      await response.text().catch(() => ''),
      response.headers.get('X-Request-Id'),
    );
    if (response.status === 401 && authenticated) handleUnauthorized(error);
    if (response.status === 404) authEvents.emit('notFound', { path: path.replace(/^\/+/, ''), method, error });
    throw error;
  }
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestWithResponse<T>(path, options)).data;
}

type Opts = Omit<RequestOptions, 'method' | 'body'>;

// ---------------------------------------------------------------------------
// Versioned files

/** A file's content with the version it was read at (null when the server sent no ETag). */
export interface Versioned<T> {
  data: T;
  version: string | null;
}

/** The error code of a write whose If-Match version is stale (409). */
export const FILE_CHANGED = 'FILE_CHANGED';
/** The error code of a versioned write sent without If-Match (428). */
export const VERSION_REQUIRED = 'VERSION_REQUIRED';

/** The version of an ETag header: 'W/"7"' and '"7"' give '7'; null when there is none. */
export function versionFromETag(etag: string | null | undefined): string | null {
  if (etag === null || etag === undefined) return null;
  const value = etag.trim().replace(/^W\//, '');
  if (value === '') return null;
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** The If-Match header of a version: a quoted entity tag. */
export const ifMatch = (version: string) => `"${version}"`;

/** Whether a write was refused because the file changed since its version was read (409 FILE_CHANGED). */
export function isFileChanged(error: unknown): error is ApiError {
  return error instanceof ApiError && error.httpStatus === 409 && error.hasCode(FILE_CHANGED);
}

function withIfMatch(options: Opts | undefined, version: string | null): Opts {
  if (version === null) return { ...options };
  return { ...options, headers: { ...options?.headers, 'If-Match': ifMatch(version) } };
}

async function versionedCall<T>(path: string, options: RequestOptions): Promise<Versioned<T>> {
  const { data, headers } = await requestWithResponse<T>(path, options);
  return { data, version: versionFromETag(headers.get('ETag')) };
}

export const api = {
  get: <T>(path: string, options?: Opts) => request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Opts) => request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Opts) => request<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Opts) => request<T>(path, { ...options, method: 'DELETE' }),
  /**
   * Whole files with versions: get answers the version of the ETag; put and post send
   * `If-Match: "<version>"` (none when the version is null: the server then answers 428)
   * and answer the saved content with its new version.
   */
  versioned: {
    get: <T>(path: string, options?: Opts) => versionedCall<T>(path, { cache: 'no-store', ...options, method: 'GET' }),
    put: <T>(path: string, body: unknown, version: string | null, options?: Opts) =>
      versionedCall<T>(path, { ...withIfMatch(options, version), method: 'PUT', body }),
    post: <T>(path: string, body: unknown, version: string | null, options?: Opts) =>
      versionedCall<T>(path, { ...withIfMatch(options, version), method: 'POST', body }),
  },
};
