/**
 * The route guard (spec 1 §2.2). It runs as the loader of the signed-in layout route, i.e.
 * before any signed-in route renders, on every navigation:
 *
 * - the domains the user may write to are loaded (domain_write; admins: every domain);
 * - a domain-scoped route (domain/{domain}/…) opens that domain when it is not the current one
 *   ('Loading Domains', 'Opening Domain'; a missing domain is a global error) and refreshes
 *   the user's permissions there BEFORE the route renders. When that fails a warning toast
 *   'Failed to fetch roles' is shown and the navigation is blocked (the user stays where they
 *   were); a 503 sends the user to '/';
 * - a route whose permission is missing sends the user to '/'; a route without a domain that
 *   requires a permission sends non-admins to '/';
 * - each route that passes is remembered per user; after login the reUrl query parameter, or
 *   else the last visited route, is restored once (see restoreTarget).
 */
import { matchPath, replace, type LoaderFunctionArgs } from 'react-router';
import { create } from 'zustand';
import { api } from '../../api/client';
import { domainApi } from '../../api/domain';
import { toApiError } from '../../api/errors';
import type { Domain, User } from '../../api/types';
import { DOMAIN_MENU, PORTAL_MENU } from '../../core/menus';
import { overlay } from '../../core/overlayStore';
import { hasPermission } from '../../core/permissions';
import { registeredRoutes } from '../../core/registry';
import { selectDomain, setDomainPermissions, setWritableDomainIds, useSelectionStore } from '../../core/selectionStore';
import { clearGlobalError, GLOBAL_ERROR_MESSAGES, raiseGlobalError } from '../selection/workspaceError';
import { clearBuildWithoutLivePreview } from '../../core/portalChain';
import { useSessionStore } from '../../core/sessionStore';
import { toasts } from '../../core/toastService';

export const GUARD_MESSAGES = {
  rolesFailed: 'Failed to fetch roles',
  loadingDomains: 'Loading Domains',
  openingDomain: 'Opening Domain',
} as const;

/** localStorage key of a user's last visited route. */
export const lastRouteKey = (userId: User['id']) => `pw.last_route.${String(userId)}`;
export const RE_URL_PARAM = 'reUrl';

interface GuardState {
  /** A route has passed the guard since the last sign-in (the shell may render). */
  ready: boolean;
  /** The location (path + search) that last passed the guard. */
  lastHref: string | null;
  /** The post-login restore has been done for this sign-in. */
  restored: boolean;
}

const initialGuardState: GuardState = { ready: false, lastHref: null, restored: false };
export const useGuardStore = create<GuardState>(() => ({ ...initialGuardState }));

/** The location a block sends back to: it passes without a second permission refresh. */
let bypassHref: string | null = null;

export function resetGuard(): void {
  bypassHref = null;
  useGuardStore.setState({ ...initialGuardState });
}

// ---------------------------------------------------------------------------
// Calls

interface UserRolesResponse {
  roles?: string[] | null;
  permissions?: string[] | null;
  admin?: boolean;
}

const id = (value: string | number) => encodeURIComponent(String(value));

export const guardApi = {
  writableDomains: (user: User): Promise<Domain[]> =>
    user.admin
      ? domainApi.list()
      : api.get<Domain[] | null>(`permissions/getDomains/${id(user.id)}/domain_write`).then((d) => d ?? []),
  userRoles: (userId: User['id'], domainId: string) =>
    api.get<UserRolesResponse>(`permissions/getUserRoles/${id(userId)}/${id(domainId)}`),
};

// ---------------------------------------------------------------------------
// Route rules

/** The permission a route needs: that of the menu entry with the route's id (core/menus.ts). */
export function requiredPermission(pathname: string): { routeId: string; permission?: string } | null {
  for (const module of registeredRoutes()) {
    if (matchPath({ path: `/${module.path.replace(/^\/+/, '')}`, end: true }, pathname)) {
      const entry = [...DOMAIN_MENU, ...PORTAL_MENU].find((e) => e.id === module.id);
      return { routeId: module.id, permission: entry?.permission };
    }
  }
  return null;
}

/** The domain id of a domain-scoped path, e.g. '/domain/3/email' → '3'. */
export function domainOfPath(pathname: string): string | null {
  return matchPath({ path: '/domain/:domain', end: false }, pathname)?.params.domain ?? null;
}

/** A reUrl value as a route of this app ('#/x', '/x' or 'x' → '/x'); null when it is not one. */
export function normaliseReUrl(value: string | null): string | null {
  if (!value) return null;
  let route = value.trim().replace(/^#/, '');
  if (!route.startsWith('/')) route = `/${route}`;
  if (route.startsWith('//') || /[\s\\]/.test(route)) return null;
  return route;
}

// ---------------------------------------------------------------------------
// Last visited route

function readLastRoute(userId: User['id']): string | null {
  try {
    return normaliseReUrl(window.localStorage.getItem(lastRouteKey(userId)));
  } catch {
    return null;
  }
}

function storeLastRoute(userId: User['id'], href: string): void {
  try {
    window.localStorage.setItem(lastRouteKey(userId), href);
  } catch {
    // Storage unavailable: nothing to restore next time.
  }
}

/**
 * Where to go once after login: the reUrl parameter of the current location, else the
 * current location when it is a deep link, else the user's last visited route, else '/'.
 */
export function restoreTarget(location: { pathname: string; search: string }, userId: User['id']): string {
  const params = new URLSearchParams(location.search);
  const reUrl = normaliseReUrl(params.get(RE_URL_PARAM));
  if (reUrl) return reUrl;
  params.delete(RE_URL_PARAM);
  params.delete('external');
  const search = params.toString();
  if (location.pathname !== '/' || search) return `${location.pathname}${search ? `?${search}` : ''}`;
  return readLastRoute(userId) ?? '/';
}

// ---------------------------------------------------------------------------
// The loader

function passed(href: string, user: User): null {
  // Error screens are not worth coming back to.
  if (!href.startsWith('/error/')) storeLastRoute(user.id, href);
  useGuardStore.setState({ ready: true, lastHref: href });
  return null;
}

/** Refuses the navigation: back to the last route that passed (without a new check), or '/'. */
function block(href: string): Response | null {
  const { lastHref } = useGuardStore.getState();
  const back = lastHref && lastHref !== href ? lastHref : href !== '/' ? '/' : null;
  if (!back) {
    useGuardStore.setState({ ready: true });
    return null;
  }
  bypassHref = back;
  return replace(back);
}

async function loadWritableDomains(user: User): Promise<void> {
  try {
    const domains = await guardApi.writableDomains(user);
    setWritableDomainIds(domains.map((d) => d.id));
  } catch (error) {
    // Only the Administration menu depends on it; the previous list stays.
    console.error('Could not load domains', error);
  }
}

/**
 * Finds the URL's domain when it is not the current one ('Loading Domains'). Returns the domain
 * to open, 'current' when it is already open, or null when a global error was raised. A loader
 * that a newer navigation replaced (Continue, a click elsewhere) raises nothing: its error would
 * cover the route the user went on to.
 */
async function findDomain(domainId: string, href: string, signal: AbortSignal): Promise<Domain | 'current' | null> {
  const current = useSelectionStore.getState().domain;
  if (current && String(current.id) === domainId) return 'current';
  overlay.show(GUARD_MESSAGES.loadingDomains);
  let domains: Domain[];
  try {
    domains = await domainApi.list();
  } catch {
    if (signal.aborted) return null;
    raiseGlobalError({
      type: 'DOMAINS_LOADING_FAILED',
      title: 'Could not load domains',
      message: GLOBAL_ERROR_MESSAGES.domainsLoading,
      href,
    });
    return null;
  }
  const domain = domains.find((d) => String(d.id) === domainId);
  if (!domain) {
    if (signal.aborted) return null;
    raiseGlobalError({
      type: 'DOMAIN_OPENING_FAILED',
      title: 'Could not open domain',
      message: GLOBAL_ERROR_MESSAGES.domainOpening,
      href,
    });
    return null;
  }
  return domain;
}

export async function guardLoader({ request }: LoaderFunctionArgs): Promise<Response | null> {
  const { status, user } = useSessionStore.getState();
  // Signed out (or the session is still being checked): AuthGate shows the sign-in screen and
  // runs the guard again after login.
  if (status !== 'loggedIn' || !user) return null;

  const url = new URL(request.url);
  const href = `${url.pathname}${url.search}`;
  if (bypassHref === href) {
    bypassHref = null;
    useGuardStore.setState({ ready: true, lastHref: href });
    return null;
  }

  const writable = loadWritableDomains(user);
  const domainId = domainOfPath(url.pathname);
  if (domainId !== null) {
    try {
      const domain = await findDomain(domainId, href, request.signal);
      if (!domain) {
        await writable;
        if (!request.signal.aborted) useGuardStore.setState({ ready: true });
        return null;
      }
      if (domain !== 'current') overlay.show(GUARD_MESSAGES.openingDomain);
      let roles: UserRolesResponse;
      try {
        roles = (await guardApi.userRoles(user.id, domainId)) ?? {};
      } catch (cause) {
        await writable;
        if (toApiError(cause).httpStatus === 503) return replace('/');
        toasts.warning(GUARD_MESSAGES.rolesFailed);
        return block(href);
      }
      // A newer navigation took over: leave the selection to it.
      if (request.signal.aborted) return null;
      // The domain opens (closing the previous one) only once its permissions are known.
      if (domain !== 'current') {
        // Another domain closes the open portal: the close rule applies (spec 3 §4).
        const { domain: previous, portal: open } = useSelectionStore.getState();
        if (previous && open && String(previous.id) !== String(domain.id))
          void clearBuildWithoutLivePreview(previous.id, open);
        selectDomain({ id: domain.id, name: domain.name });
      }
      setDomainPermissions(domainId, roles.roles ?? [], roles.permissions ?? []);
    } finally {
      overlay.hide();
    }
  }
  await writable;
  clearGlobalError();

  const rule = requiredPermission(url.pathname);
  if (rule?.permission) {
    if (domainId === null && !user.admin) return replace('/');
    const { permissions } = useSelectionStore.getState();
    if (!hasPermission({ isAdmin: !!user.admin, permissions }, rule.permission)) return replace('/');
  }
  return passed(href, user);
}
