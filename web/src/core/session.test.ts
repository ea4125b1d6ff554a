import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  getIdToken,
  getRefreshToken,
  isExternalLogin,
  setExternalLogin,
  setRememberMe,
  storeTokens,
} from '../api/authStorage';
import { authEvents } from '../api/client';
import { ApiError } from '../api/errors';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../test/helpers';
import { reloadPage } from './location';
import { useOverlayStore } from './overlayStore';
import {
  consumeUrlTokens,
  extractHashTokens,
  installSessionListeners,
  logout,
  MESSAGES,
  startSession,
} from './session';
import { initialSessionState, useSessionStore } from './sessionStore';

vi.mock('./location', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./location')>()),
  reloadPage: vi.fn(),
}));

const probeConfig = { ws: { host: '' }, documentation: [], legalDocs: [], links: [], uploadFilter: { image: ['png'] } };
const overlayMessage = () => (useOverlayStore.getState().visible ? useOverlayStore.getState().message : null);

beforeEach(() => {
  useSessionStore.setState({ ...initialSessionState });
  useOverlayStore.setState({ visible: false });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(reloadPage).mockClear();
});

describe('tokens in the URL hash', () => {
  it('reads both shapes and strips the tokens', () => {
    expect(extractHashTokens('#id_token=a&refresh_token=b')).toEqual({ idToken: 'a', refreshToken: 'b', hash: '#/' });
    expect(extractHashTokens('#/domain/1?id_token=a&refresh_token=b&x=1')).toEqual({
      idToken: 'a',
      refreshToken: 'b',
      hash: '#/domain/1?x=1',
    });
    expect(extractHashTokens('#/404')).toEqual({ idToken: null, refreshToken: null, hash: '#/404' });
  });

  it('stores them, sets the external-login flag and cleans the URL', () => {
    window.history.replaceState(null, '', '/app/#/?id_token=tok&refresh_token=ref');
    expect(consumeUrlTokens()).toBe(true);
    expect(getIdToken()).toBe('tok');
    expect(getRefreshToken()).toBe('ref');
    expect(isExternalLogin()).toBe(true);
    expect(window.location.hash).toBe('#/');
    expect(window.location.pathname).toBe('/app/');
  });
});

describe('startSession', () => {
  it('shows the login screen, with the checking overlay only after 800 ms', async () => {
    vi.useFakeTimers();
    let answer: (r: Response) => void = () => undefined;
    mockFetch({ 'GET api/v1/config/features': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const started = startSession();
    expect(useSessionStore.getState().status).toBe('checking');
    await vi.advanceTimersByTimeAsync(799);
    expect(overlayMessage()).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(overlayMessage()).toBe('Checking Authentication Status');
    answer(jsonResponse({ sso: { enabled: true, loginUrl: '/sso' } }));
    await started;
    expect(useSessionStore.getState()).toMatchObject({ status: 'loggedOut', features: { sso: { enabled: true } } });
    expect(overlayMessage()).toBeNull();
  });

  it('does not auto-login without remember-me or external login', async () => {
    storeTokens({ id_token: jwtExpiringIn(900) });
    const fetch = mockFetch({ 'GET api/v1/config/features': () => jsonResponse({}) });
    await startSession();
    expect(useSessionStore.getState().status).toBe('loggedOut');
    expect(fetch.mock.calls.map(([url]) => String(url).split('?')[0])).toEqual(['api/v1/config/features']);
  });

  it.each([
    ['remember-me', () => setRememberMe(true)],
    ['external login', () => setExternalLogin(true)],
  ])('auto-logs in with a valid token and the %s flag', async (_, flag) => {
    flag();
    storeTokens({ id_token: jwtExpiringIn(900) });
    const seen: Array<string | null> = [];
    const stop = useOverlayStore.subscribe((s) => seen.push(s.visible ? s.message : null));
    mockFetch({
      'GET api/v1/config/features': () => jsonResponse({}),
      'GET api/v1/user/profile': () => jsonResponse({ user: sampleUser }),
      'GET assets/config/probe.config.json': () => jsonResponse(probeConfig),
    });
    await startSession();
    stop();
    expect(useSessionStore.getState()).toMatchObject({ status: 'loggedIn', autoLogin: true, probeConfig });
    expect(seen).toContain(MESSAGES.verifying);
    expect(seen).toContain(MESSAGES.preparing);
    expect(overlayMessage()).toBeNull();
  });

  it('asks for the probe configuration with the version and carries on without it', async () => {
    setRememberMe(true);
    storeTokens({ id_token: jwtExpiringIn(900) });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fetch = mockFetch({
      'GET api/v1/config/features': () => jsonResponse({}),
      'GET api/v1/user/profile': () => jsonResponse({ user: sampleUser }),
      'GET assets/config/probe.config.json': () => errorResponse(404),
    });
    await startSession();
    expect(useSessionStore.getState().status).toBe('loggedIn');
    expect(error).toHaveBeenCalledWith('Could not load probe configuration');
    const probeCall = fetch.mock.calls.find(([url]) => String(url).startsWith('assets/config/probe.config.json'));
    expect(String(probeCall?.[0])).toBe(`assets/config/probe.config.json?version=${__APP_VERSION__}`);
  });

  it('falls back to the login screen when the profile check fails', async () => {
    setRememberMe(true);
    storeTokens({ id_token: jwtExpiringIn(900) });
    mockFetch({
      'GET api/v1/config/features': () => jsonResponse({}),
      'GET api/v1/user/profile': () => errorResponse(401),
    });
    await startSession();
    expect(useSessionStore.getState().status).toBe('loggedOut');
    expect(getIdToken()).toBeNull();
    expect(overlayMessage()).toBeNull();
  });
});

describe('logout', () => {
  it('runs the logout sequence and reloads after 200 ms', async () => {
    vi.useFakeTimers();
    storeTokens({ id_token: jwtExpiringIn(900), refresh_token: 'r' });
    setExternalLogin(true);
    setRememberMe(true);
    window.history.replaceState(null, '', '/#/domain/3/dashboard');
    useSessionStore.setState({ status: 'loggedIn', user: sampleUser, autoLogin: false });
    const seen: Array<string | null> = [];
    const stop = useOverlayStore.subscribe((s) => seen.push(s.visible ? s.message : null));
    const fetch = mockFetch({ 'POST api/v1/user/logout': () => errorResponse(500) });

    await logout();
    stop();
    expect(seen[0]).toBe('Please Wait - Logging Out');
    expect(window.location.hash).toBe('#/');
    expect(fetch).toHaveBeenCalledOnce();
    expect(getIdToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
    expect(isExternalLogin()).toBe(false);
    expect(overlayMessage()).toBeNull();
    expect(useSessionStore.getState().status).toBe('loggedOut');
    await vi.advanceTimersByTimeAsync(199);
    expect(reloadPage).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reloadPage).toHaveBeenCalledOnce();
  });

  it('reloads after 2000 ms for an auto-login session', async () => {
    vi.useFakeTimers();
    storeTokens({ id_token: jwtExpiringIn(900) });
    useSessionStore.setState({ status: 'loggedIn', user: sampleUser, autoLogin: true });
    mockFetch({ 'POST api/v1/user/logout': () => new Response(null, { status: 204 }) });
    await logout();
    await vi.advanceTimersByTimeAsync(1999);
    expect(reloadPage).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reloadPage).toHaveBeenCalledOnce();
  });
});

describe('session events', () => {
  it('logs out on unauthorized and shows the conflict dialog on sessionExpired', async () => {
    vi.useFakeTimers();
    const stop = installSessionListeners();
    mockFetch({ 'POST api/v1/user/logout': () => new Response(null, { status: 204 }) });

    useSessionStore.setState({ status: 'loggedIn', user: sampleUser });
    authEvents.emit('sessionExpired', new ApiError({ httpStatus: 401, errorCode: 'SESSION_EXPIRED' }));
    expect(useSessionStore.getState().sessionConflict).toBe(true);

    authEvents.emit('unauthorized', new ApiError({ httpStatus: 401 }));
    expect(useSessionStore.getState().status).toBe('loggingOut');
    await vi.advanceTimersByTimeAsync(500);
    expect(useSessionStore.getState().status).toBe('loggedOut');
    stop();
  });
});
