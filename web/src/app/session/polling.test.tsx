import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import { LOCAL_CHANGES_INTERVAL_MS, useLocalChanges } from '../../features/portal/queries';
import { errorResponse, jsonResponse, loginResponse, mockFetch } from '../../test/helpers';
import { renderRoute, renderWithProviders } from '../../test/render';
import { PortalChainHost } from '../selection/PortalChainHost';
import { isPortalPath } from '../../core/portalGone';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../core/selectionStore';
import { ToastStack } from '../../ui/ToastStack';
import { clearToasts, useToastStore } from '../../core/toastService';
import { isFinalError, pollEvery } from '../../core/polling';
import { initialSessionState, useSessionStore } from '../../core/sessionStore';

const status = { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 };
const calls = (fetch: ReturnType<typeof mockFetch>, path: string) =>
  fetch.mock.calls.filter(([url]) => String(url).startsWith(path)).length;

function openPortal() {
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Ops' },
    portal: { id: 2, name: 'Crew Portal' },
    portalInfo: {
      type: 'CREW',
      status: 'active',
      category: '',
      activeBranch: 'master',
      lastModified: '',
      languages: ['en_GB'],
      defaultLanguage: 'en_GB',
      languageMode: 'MULTILANGUAGE',
      scope: 'FULL',
      engineType: 'PORTAL_ENGINE',
      supportLevel: 'FULL',
    },
    branch: 'master',
    language: 'en_GB',
  });
  setDomainPermissions(1, ['Authors'], ['portal_read']);
}

/** Polls local changes while a portal is open, like the header's local-changes menu. */
function LocalChanges() {
  const open = useSelectionStore((s) => !!s.portal);
  useLocalChanges(1, 2, open);
  return null;
}

beforeEach(() => {
  storeTokens(loginResponse());
  useSessionStore.setState({ ...initialSessionState, status: 'loggedIn' });
  clearToasts();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  useSessionStore.setState({ ...initialSessionState });
  clearToasts();
});

describe('when polling stops', () => {
  it('polls only while the session is live and the last answer was not 401, 403 or 404', () => {
    const every = pollEvery(10_000);
    const failed = (httpStatus: number) => ({ state: { error: new ApiError({ httpStatus }) } });
    expect(every({ state: { error: null } })).toBe(10_000);
    expect(every(failed(500))).toBe(10_000); // a server hiccup: try again
    expect(every(failed(0))).toBe(10_000); // offline: try again
    expect(every(failed(401))).toBe(false);
    expect(every(failed(403))).toBe(false);
    expect(every(failed(404))).toBe(false);
    useSessionStore.setState({ sessionConflict: true }); // another sign-in took the session
    expect(every({ state: { error: null } })).toBe(false);
    useSessionStore.setState({ sessionConflict: false, status: 'loggingOut' });
    expect(every({ state: { error: null } })).toBe(false);
    expect(isFinalError(new Error('x'))).toBe(false);
  });

  it('stops polling local changes after the session was replaced (401 SESSION_EXPIRED)', async () => {
    vi.useFakeTimers();
    openPortal();
    let expired = false;
    const fetch = mockFetch({
      'GET api/v1/portal/1/2/local-changes': () =>
        expired
          ? errorResponse(401, { errorCode: 'SESSION_EXPIRED', errorMessage: 'It appears you have logged in…' })
          : jsonResponse(status),
    });
    useSessionStore.setState({
      status: 'loggedIn',
      sessionConflict: false,
    });
    // The session store listens to the client: sessionExpired → the conflict dialog.
    const { installSessionListeners } = await import('../../core/session');
    const stop = installSessionListeners();
    renderWithProviders(<LocalChanges />);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(calls(fetch, 'api/v1/portal/1/2/local-changes')).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(LOCAL_CHANGES_INTERVAL_MS));
    expect(calls(fetch, 'api/v1/portal/1/2/local-changes')).toBe(2);

    expired = true;
    await act(() => vi.advanceTimersByTimeAsync(LOCAL_CHANGES_INTERVAL_MS));
    expect(calls(fetch, 'api/v1/portal/1/2/local-changes')).toBe(3);
    expect(useSessionStore.getState().sessionConflict).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(LOCAL_CHANGES_INTERVAL_MS * 10));
    expect(calls(fetch, 'api/v1/portal/1/2/local-changes')).toBe(3);
    stop();
  });

  it('stops polling local changes after a 404 or 403', async () => {
    vi.useFakeTimers();
    openPortal();
    let answer: Response | null = null;
    const fetch = mockFetch({
      'GET api/v1/portal/1/2/local-changes': () => answer ?? jsonResponse(status),
    });
    renderWithProviders(<LocalChanges />);
    await act(() => vi.advanceTimersByTimeAsync(10));
    answer = errorResponse(403, { errorMessage: 'You do not have the right permission' });
    await act(() => vi.advanceTimersByTimeAsync(LOCAL_CHANGES_INTERVAL_MS));
    expect(calls(fetch, 'api/v1/portal/1/2/local-changes')).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(LOCAL_CHANGES_INTERVAL_MS * 10));
    expect(calls(fetch, 'api/v1/portal/1/2/local-changes')).toBe(2);
  });
});

describe('the open portal was deleted', () => {
  it('knows which API paths are about a portal', () => {
    expect(isPortalPath('portal/1/2/local-changes', 1, 2)).toBe(true);
    expect(isPortalPath('settings/1/2', 1, 2)).toBe(true);
    expect(isPortalPath('portal/load/1/2/probeSettings', '1', '2')).toBe(true);
    expect(isPortalPath('portal_branch/allReferences/1/2', 1, 2)).toBe(true);
    expect(isPortalPath('portal/1/23/local-changes', 1, 2)).toBe(false);
    expect(isPortalPath('portal/11/2/local-changes', 1, 2)).toBe(false);
    expect(isPortalPath('template/1', 1, 2)).toBe(false);
  });

  it('leaves the portal, says it no longer exists and stops polling it', async () => {
    openPortal();
    let deleted = false;
    const fetch = mockFetch({
      'GET api/v1/portal/1/2/local-changes': () =>
        deleted
          ? errorResponse(404, { errorCode: 'PORTAL_NOT_FOUND', errorMessage: 'Failed to open Portal' })
          : jsonResponse(status),
      'GET api/v1/portal/1/categorized': () => jsonResponse([]),
    });
    const { router, queryClient: client } = renderRoute(
      [
        {
          path: '*',
          element: (
            <>
              <PortalChainHost />
              <LocalChanges />
              <ToastStack />
            </>
          ),
        },
      ],
      '/domain/1/portal/2/branch/master/en_GB/settings',
    );
    await vi.waitFor(() => expect(calls(fetch, 'api/v1/portal/1/2/local-changes')).toBeGreaterThan(0));

    // A 404 about another portal, or a 404 of another kind, changes nothing.
    mockFetch({
      'GET api/v1/portal/1/7/local-changes': () => errorResponse(404, { errorCode: 'PORTAL_NOT_FOUND' }),
      'GET api/v1/portal/1/2/pages/x': () => errorResponse(404, { errorCode: 'PAGE_NOT_FOUND' }),
    });
    await api.get('portal/1/7/local-changes').catch(() => undefined);
    await api.get('portal/1/2/pages/x').catch(() => undefined);
    expect(useSelectionStore.getState().portal).not.toBeNull();

    vi.stubGlobal('fetch', fetch);
    deleted = true;
    await act(() => client.refetchQueries({ queryKey: ['portal', '1', '2', 'local-changes'] }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/domain/1/dashboard'));
    expect(useSelectionStore.getState().portal).toBeNull();
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain(
      'The portal Crew Portal no longer exists: it was deleted. You have left it.',
    );
    // Nothing polls the portal any more.
    expect(client.getQueryCache().findAll({ queryKey: ['portal', '1', '2'], type: 'active' })).toHaveLength(0);
    const asked = calls(fetch, 'api/v1/portal/1/2/local-changes');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls(fetch, 'api/v1/portal/1/2/local-changes')).toBe(asked);
  });
});
