/**
 * The session flow (spec 1 §2.4, §4.1): start-up check, auto-login, login,
 * workspace preparation and logout. UI components only call these functions
 * and read useSessionStore.
 */
import {
  clearTokens,
  getIdToken,
  getRefreshToken,
  getRememberMe,
  isExternalLogin,
  setExternalLogin,
  storeTokens,
} from '../api/authStorage';
import { authEvents } from '../api/client';
import { configApi } from '../api/config';
import { isTokenValid, looksLikeJwt } from '../api/token';
import type { LoginResponse, ProbeConfig, ProfileResponse, User } from '../api/types';
import { userApi } from '../api/user';
import { basePath, reloadPage, resetHashToRoot } from './location';
import { overlay } from './overlayStore';
import { clearBuildWithoutLivePreview } from './portalChain';
import { holdNavigation } from './registry';
import { useSelectionStore } from './selectionStore';
import { initialSessionState, useSessionStore } from './sessionStore';

export const AUTH_CHECK_OVERLAY_DELAY_MS = 800;
export const LOGOUT_RELOAD_DELAY_MS = 200;
export const AUTO_LOGIN_LOGOUT_RELOAD_DELAY_MS = 2000;

export const MESSAGES = {
  checking: 'Checking Authentication Status',
  verifying: 'Verifying Authentication Details',
  preparing: 'Preparing Workspace',
  loggingOut: 'Please Wait - Logging Out',
  probeConfigFailed: 'Could not load probe configuration',
} as const;

const set = useSessionStore.setState;
const get = useSessionStore.getState;

// ---------------------------------------------------------------------------
// Tokens arriving in the URL (external single sign-on)

export interface HashTokens {
  idToken: string | null;
  refreshToken: string | null;
  /** The hash with the token parameters removed (always starts with '#/'). */
  hash: string;
}

/**
 * Finds `id_token` and `refresh_token` in a location hash. Both shapes are
 * accepted: `#id_token=…&refresh_token=…` and `#/some/route?id_token=…`.
 */
export function extractHashTokens(rawHash: string): HashTokens {
  const hash = rawHash.replace(/^#/, '');
  const queryStart = hash.indexOf('?');
  let path: string;
  let query: string;
  if (queryStart >= 0) {
    path = hash.slice(0, queryStart);
    query = hash.slice(queryStart + 1);
  } else if (/^[^/]*=/.test(hash)) {
    path = '';
    query = hash;
  } else {
    path = hash;
    query = '';
  }
  const params = new URLSearchParams(query);
  const idToken = params.get('id_token');
  const refreshToken = params.get('refresh_token');
  params.delete('id_token');
  params.delete('refresh_token');
  const rest = params.toString();
  const cleanPath = path.startsWith('/') ? path : `/${path}`;
  return { idToken, refreshToken, hash: `#${cleanPath}${rest ? `?${rest}` : ''}` };
}

/**
 * Stores login tokens found in the URL hash, marks the session as an external
 * login and removes the tokens from the URL. Call before the router starts.
 */
export function consumeUrlTokens(): boolean {
  const { idToken, refreshToken, hash } = extractHashTokens(window.location.hash);
  if (!idToken) return false;
  storeTokens({ id_token: idToken, refresh_token: refreshToken });
  setExternalLogin(true);
  window.history.replaceState(window.history.state, '', `${basePath()}${window.location.search}${hash}`);
  return true;
}

/**
 * A stored session can be restored when the access token is valid, or when a
 * refresh token is present that is not known to be expired (the client then
 * refreshes before the first call). Access tokens are short-lived, so without
 * the second case Remember Me would only last minutes.
 */
export function hasRestorableSession(): boolean {
  if (isTokenValid(getIdToken())) return true;
  const refresh = getRefreshToken();
  return !!refresh && (!looksLikeJwt(refresh) || isTokenValid(refresh));
}

// ---------------------------------------------------------------------------
// Workspace preparation

type Preparer = () => Promise<unknown>;
const workspacePreparers = new Set<Preparer>();

/** Work that runs under the 'Preparing Workspace' overlay after every login (e.g. preloading the shell). */
export function addWorkspacePreparer(preparer: Preparer): () => void {
  workspacePreparers.add(preparer);
  return () => {
    workspacePreparers.delete(preparer);
  };
}

async function loadProbeConfig(): Promise<ProbeConfig | null> {
  try {
    return await configApi.probeConfig();
  } catch {
    console.error(MESSAGES.probeConfigFailed);
    return null;
  }
}

async function enterWorkspace(profile: ProfileResponse, autoLogin: boolean): Promise<void> {
  set({ status: 'preparing', user: profile.user, roles: profile.roles ?? [], autoLogin, sessionConflict: false });
  overlay.show(MESSAGES.preparing);
  const [probeConfig] = await Promise.all([
    loadProbeConfig(),
    ...[...workspacePreparers].map((prepare) => prepare().catch((error: unknown) => console.error(error))),
  ]);
  if (get().status !== 'preparing') return; // logged out meanwhile
  set({ status: 'loggedIn', probeConfig });
  overlay.hide();
}

// ---------------------------------------------------------------------------
// Start-up, login, logout

async function loadFeatures(): Promise<void> {
  try {
    const features = await configApi.features();
    set({ features: features ?? {} });
  } catch {
    // Without the feature list the login form offers password sign-in only.
  }
}

function endLocalSession(): void {
  clearTokens();
  setExternalLogin(false);
  set({ status: 'loggedOut', user: null, roles: [], autoLogin: false, sessionConflict: false });
  overlay.hide();
}

/**
 * Start-up: auto-login when a restorable session exists and the user chose
 * Remember Me or signed in externally; otherwise the login screen, preceded
 * by 'Checking Authentication Status' when the check takes longer than 800 ms.
 */
export async function startSession(): Promise<void> {
  const features = loadFeatures();

  if (hasRestorableSession() && (getRememberMe() || isExternalLogin())) {
    set({ status: 'verifying' });
    overlay.show(MESSAGES.verifying);
    try {
      const profile = await userApi.profile();
      await enterWorkspace(profile, true);
    } catch {
      endLocalSession();
    }
    return;
  }

  set({ status: 'checking' });
  let overlayShown = false;
  const timer = setTimeout(() => {
    overlayShown = true;
    overlay.show(MESSAGES.checking);
  }, AUTH_CHECK_OVERLAY_DELAY_MS);
  await features;
  clearTimeout(timer);
  if (overlayShown) overlay.hide();
  if (get().status === 'checking') set({ status: 'loggedOut' });
}

/** Finishes a successful login: stores the tokens, prepares the workspace, shows the shell. */
export async function completeLogin(response: LoginResponse): Promise<void> {
  storeTokens(response);
  await enterWorkspace(response.profile, false);
}

/** Signs in with username and password. Rejects with the API error; the caller shows it. */
export async function signIn(username: string, password: string): Promise<void> {
  const response = await userApi.login({ username, password });
  await completeLogin(response);
}

/**
 * Logout sequence (spec 1 §4.1): overlay 'Please Wait - Logging Out'; reset
 * the URL to the root; revoke the session on the server (a failure is
 * ignored); clear the token and external-login items; hide the overlay;
 * reload after 200 ms (2000 ms for an auto-login session).
 */
export async function logout(): Promise<void> {
  const { status, autoLogin } = get();
  if (status === 'loggingOut') return;
  set({ status: 'loggingOut', sessionConflict: false });
  overlay.show(MESSAGES.loggingOut);
  await holdNavigation(); // spec 3 §4: logout waits for running tasks (features/taskrunner)
  // … and clears the build if needed (no live preview of the open portal), while signed in.
  const { domain, portal } = useSelectionStore.getState();
  if (domain && portal) await clearBuildWithoutLivePreview(domain.id, portal);
  resetHashToRoot();
  try {
    await userApi.logout();
  } catch {
    // The session ends locally whatever the server says.
  }
  clearTokens();
  setExternalLogin(false);
  overlay.hide();
  set({ ...initialSessionState, status: 'loggedOut', features: get().features });
  setTimeout(reloadPage, autoLogin ? AUTO_LOGIN_LOGOUT_RELOAD_DELAY_MS : LOGOUT_RELOAD_DELAY_MS);
}

/** A profile update replaces the current user when the ids match (spec 1 §4.1). */
export function applyProfileUpdate(user: User): void {
  const current = get().user;
  if (current && String(current.id) === String(user.id)) set({ user });
}

/** Reacts to the API client's session events. Returns a function that stops listening. */
export function installSessionListeners(): () => void {
  const stops = [
    authEvents.on('unauthorized', () => {
      const { status } = get();
      if (status === 'loggedIn') void logout();
      else if (status === 'preparing') endLocalSession();
    }),
    authEvents.on('sessionExpired', () => {
      if (get().status === 'loggedIn') set({ sessionConflict: true });
    }),
    authEvents.on('tokensRefreshed', (response) => {
      if (response.profile?.user) applyProfileUpdate(response.profile.user);
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
