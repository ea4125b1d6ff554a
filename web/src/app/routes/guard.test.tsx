import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { renderRoute } from '../../test/render';
import { usePermission } from '../../core/usePermission';
import { registerRoute } from '../../core/registry';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { useWorkspaceErrorStore } from '../selection/workspaceError';
import { initialSessionState, useSessionStore } from '../../core/sessionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { lastRouteKey, normaliseReUrl, resetGuard, restoreTarget } from './guard';
import { appRoutes } from './router';

/** What each guarded screen saw on its FIRST render. */
const firstRender: Record<string, boolean> = {};

function Probe({ name, permission }: { name: string; permission: string }) {
  const allowed = usePermission(permission);
  if (!(name in firstRender)) firstRender[name] = allowed;
  return <h1>{name}</h1>;
}

registerRoute({
  id: 'domain.dashboard',
  path: 'domain/:domain/dashboard',
  lazy: async () => ({ default: () => <Probe name="Domain dashboard" permission="domain_user_create" /> }),
});
registerRoute({
  id: 'domain.email',
  path: 'domain/:domain/email',
  lazy: async () => ({ default: () => <Probe name="Email screen" permission="domain_user_create" /> }),
});
// A route without a domain whose menu entry carries a permission (Manage Templates: template:r).
registerRoute({
  id: 'domain.templates',
  path: 'templates-anywhere',
  lazy: async () => ({ default: () => <h1>Templates</h1> }),
});

const domains = [
  { id: 1, name: 'Alpha Air' },
  { id: 2, name: 'Beta Rail' },
];

type Roles = Record<string, () => Response | Promise<Response>>;

function backend(roles: Roles, user = sampleUser) {
  const routes: Parameters<typeof mockFetch>[0] = {
    'GET api/v1/domain/': () => jsonResponse(domains),
    [`GET api/v1/permissions/getDomains/${user.id}/domain_write`]: () => jsonResponse([domains[0]]),
  };
  for (const [domain, answer] of Object.entries(roles)) {
    routes[`GET api/v1/permissions/getUserRoles/${user.id}/${domain}`] = answer;
  }
  return mockFetch(routes);
}

const rolesAnswer = (permissions: string[]) => () =>
  jsonResponse({ domainId: 1, roles: ['Editors'], permissions, admin: false });

function start(path: string, status: 'loggedIn' | 'loggedOut' = 'loggedIn', user = sampleUser) {
  useSessionStore.setState({ status, user: status === 'loggedIn' ? user : null });
  return renderRoute(appRoutes(), path).router;
}

const here = (router: ReturnType<typeof start>) => router.state.location.pathname + router.state.location.search;

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ ...initialSessionState });
  useSelectionStore.setState({ ...initialSelectionState });
  useWorkspaceErrorStore.setState({ error: null });
  resetGuard();
  clearToasts();
  for (const key of Object.keys(firstRender)) delete firstRender[key];
});
afterEach(() => vi.unstubAllGlobals());

describe('route guard', () => {
  it("loads the domain's permissions before the route renders", async () => {
    let answer: (r: Response) => void = () => undefined;
    backend({ 1: () => new Promise<Response>((resolve) => (answer = resolve)) });
    start('/domain/1/email');
    await waitFor(() => expect(answer).not.toBe(undefined));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('heading', { name: 'Email screen' })).not.toBeInTheDocument();
    answer(rolesAnswer(['DOMAIN_USER_CREATE'])());
    expect(await screen.findByRole('heading', { name: 'Email screen' })).toBeInTheDocument();
    expect(firstRender['Email screen']).toBe(true);
    expect(useSelectionStore.getState()).toMatchObject({
      domain: { id: 1, name: 'Alpha Air' },
      permissions: ['domain_user_create'],
      roles: ['Editors'],
      writableDomainIds: [1],
    });
  });

  it("blocks the navigation with 'Failed to fetch roles' when the permissions cannot be loaded", async () => {
    backend({ 1: rolesAnswer([]), 2: () => errorResponse(403) });
    const router = start('/domain/1/dashboard');
    await screen.findByRole('heading', { name: 'Domain dashboard' });
    await act(() => router.navigate('/domain/2/dashboard'));
    await waitFor(() =>
      expect(useToastStore.getState().toasts.map((t) => [t.type, t.message])).toContainEqual([
        'WARNING',
        'Failed to fetch roles',
      ]),
    );
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(here(router)).toBe('/domain/1/dashboard');
    expect(screen.getByRole('heading', { name: 'Domain dashboard' })).toBeInTheDocument();
    expect(useSelectionStore.getState().domain).toEqual({ id: 1, name: 'Alpha Air' });
  });

  it("sends the user to '/' when the route's permission is missing", async () => {
    backend({ 1: rolesAnswer(['page_read']) });
    const router = start('/domain/1/email');
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(here(router)).toBe('/');
    expect(firstRender['Email screen']).toBeUndefined();
  });

  it("sends the user to '/' on a 503 while loading the permissions", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    backend({ 1: () => errorResponse(503) });
    const router = start('/domain/1/dashboard');
    await vi.advanceTimersByTimeAsync(2000);
    vi.useRealTimers();
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(here(router)).toBe('/');
  });

  it("sends non-admins to '/' from a route without a domain that requires a permission", async () => {
    backend({});
    const router = start('/templates-anywhere');
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(here(router)).toBe('/');
  });

  it('lets admins open a permission route without a domain', async () => {
    backend({}, { ...sampleUser, admin: true });
    start('/templates-anywhere', 'loggedIn', { ...sampleUser, admin: true });
    expect(await screen.findByRole('heading', { name: 'Templates' })).toBeInTheDocument();
  });

  it("raises 'Could not open domain: The domain does not exist' for an unknown domain", async () => {
    backend({});
    start('/domain/99/dashboard');
    expect(await screen.findByText('Could not open domain: The domain does not exist')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeInTheDocument();
  });
});

describe('domain loading errors', () => {
  it("shows 'Failed to load the domains' with Retry, and Retry opens the domain", async () => {
    let fail = true;
    mockFetch({
      'GET api/v1/domain/': () => (fail ? errorResponse(404) : jsonResponse(domains)),
      [`GET api/v1/permissions/getDomains/${sampleUser.id}/domain_write`]: () => jsonResponse([]),
      [`GET api/v1/permissions/getUserRoles/${sampleUser.id}/2`]: rolesAnswer([]),
    });
    start('/domain/2/dashboard');
    expect(await screen.findByText('Failed to load the domains')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
    fail = false;
    await act(async () => screen.getByRole('button', { name: 'Retry' }).click());
    expect(await screen.findByRole('heading', { name: 'Domain dashboard' })).toBeInTheDocument();
    expect(useSelectionStore.getState().domain).toEqual({ id: 2, name: 'Beta Rail' });
  });

  it('Continue leaves an unknown domain for the dashboard', async () => {
    backend({});
    const router = start('/domain/99/dashboard');
    await screen.findByText('Could not open domain: The domain does not exist');
    await act(async () => screen.getByRole('button', { name: 'Continue' }).click());
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(here(router)).toBe('/');
  });

  it('raises no error for a domain lookup that a newer navigation replaced', async () => {
    // A slow domain list: the user has gone on before it answers (Continue, a click elsewhere).
    const pending: Array<() => void> = [];
    mockFetch({
      'GET api/v1/domain/': () =>
        new Promise<Response>((resolve) => pending.push(() => resolve(jsonResponse(domains)))),
      [`GET api/v1/permissions/getDomains/${sampleUser.id}/domain_write`]: () => jsonResponse([]),
    });
    const router = start('/domain/99/dashboard');
    await waitFor(() => expect(pending.length).toBeGreaterThan(0));
    await act(() => router.navigate('/'));
    await screen.findByRole('heading', { name: /Welcome/ });
    await act(async () => pending.forEach((answer) => answer()));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(useWorkspaceErrorStore.getState().error).toBeNull();
    expect(screen.getByRole('heading', { name: /Welcome/ })).toBeInTheDocument();
    expect(here(router)).toBe('/');
  });
});

describe('restoring a route after login', () => {
  it('restores reUrl once after login', async () => {
    backend({ 1: rolesAnswer([]) });
    const router = start('/?external=1&reUrl=%23%2Fdomain%2F1%2Fdashboard', 'loggedOut');
    await act(async () => useSessionStore.setState({ status: 'loggedIn', user: sampleUser }));
    expect(await screen.findByRole('heading', { name: 'Domain dashboard' })).toBeInTheDocument();
    expect(here(router)).toBe('/domain/1/dashboard');
    expect(window.localStorage.getItem(lastRouteKey(sampleUser.id))).toBe('/domain/1/dashboard');

    // Once: later navigations are not redirected again.
    await act(() => router.navigate('/?reUrl=%2Fdomain%2F1%2Fdashboard'));
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(router.state.location.pathname).toBe('/');
  });

  it('restores the last visited route of the user', async () => {
    window.localStorage.setItem(lastRouteKey(sampleUser.id), '/domain/1/dashboard');
    backend({ 1: rolesAnswer([]) });
    const router = start('/', 'loggedOut');
    await act(async () => useSessionStore.setState({ status: 'loggedIn', user: sampleUser }));
    expect(await screen.findByRole('heading', { name: 'Domain dashboard' })).toBeInTheDocument();
    expect(here(router)).toBe('/domain/1/dashboard');
  });

  it('works out the target', () => {
    expect(restoreTarget({ pathname: '/', search: '?reUrl=%23%2Fadmin%2Fusers%2F1' }, 7)).toBe('/admin/users/1');
    expect(restoreTarget({ pathname: '/domain/1/email', search: '' }, 7)).toBe('/domain/1/email');
    expect(restoreTarget({ pathname: '/', search: '?external=1' }, 7)).toBe('/');
    expect(normaliseReUrl('//evil.example')).toBeNull();
    expect(normaliseReUrl('domain/1/dashboard')).toBe('/domain/1/dashboard');
  });
});
