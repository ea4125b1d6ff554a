import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { clearPortalError } from '../../core/portalError';
import { renderRoute } from '../../test/render';
import { useSessionStore } from '../../core/sessionStore';
import { PortalChainHost } from './PortalChainHost';
import {
  initialSelectionState,
  selectPortal,
  setDomainPermissions,
  useSelectionStore,
} from '../../core/selectionStore';

const portal = (id: number, name: string) => ({ id, name, children: [] });

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser } });
  useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
  setDomainPermissions(1, ['Authors'], ['portal_read']);
  clearPortalError();
});
afterEach(() => vi.unstubAllGlobals());

const render = () => renderRoute([{ path: '*', element: <PortalChainHost /> }], '/domain/1/dashboard');

describe('opening a domain', () => {
  it("opens the domain's only portal outside 'Inactive Portals'", async () => {
    mockFetch({
      'GET api/v1/portal/1/categorized': () =>
        jsonResponse([
          { id: 1, name: 'Crew Portals', deactivated: false, children: [portal(4, 'Only Portal')] },
          { id: 0, name: 'Inactive Portals', deactivated: true, children: [portal(5, 'Old Portal')] },
        ]),
    });
    const { router } = render();
    await waitFor(() => expect(router.state.location.pathname).toBe('/domain/1/portal/4'));
  });

  it('stays on the domain dashboard with several portals', async () => {
    const fetch = mockFetch({
      'GET api/v1/portal/1/categorized': () =>
        jsonResponse([{ id: 1, name: 'Crew Portals', deactivated: false, children: [portal(4, 'A'), portal(6, 'B')] }]),
    });
    const { router } = render();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 20));
    expect(router.state.location.pathname).toBe('/domain/1/dashboard');
  });
});

describe('the sitemap-loading global error', () => {
  // The sitemap is loaded for users who read pages.
  beforeEach(() => useSelectionStore.setState({ permissions: ['page_read'] }));
  const crew = {
    id: 1,
    name: 'Crew Portal',
    type: 'CREW',
    scope: 'FULL',
    status: 'active',
    category: 'Crew Portals',
    activeBranch: 'master',
    lastModified: '2026-01-02T00:00:00Z',
  };
  const server = (sitemap: () => Response) => {
    let calls = 0;
    mockFetch({
      'GET api/v1/portal/1': () => jsonResponse([crew]),
      'GET api/v1/portal/1/1/open': () =>
        jsonResponse({
          portal: crew,
          branch: 'master',
          settings: {
            engineType: 'PORTAL_ENGINE',
            supportLevel: 'FULL',
            scope: 'FULL',
            languageSettings: { languages: ['en_GB'], defaultLanguage: 'en_GB', languageMode: 'SINGLE_LANGUAGE' },
          },
          status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
        }),
      'GET api/v1/page/1/1/sitemap': () => {
        calls++;
        return sitemap();
      },
    });
    return () => calls;
  };
  const path = '/domain/1/portal/1/branch/master/en_GB/pages/home/designer-mode';
  const renderAt = () =>
    renderRoute(
      [
        { path: '*', element: <PortalChainHost /> },
        { path: '/domain/1/dashboard', element: <p>Domain dashboard</p> },
      ],
      path,
    );

  it('offers Retry and Cancel; Retry loads the sitemap again and selects the page', async () => {
    let fail = true;
    const calls = server(() =>
      fail
        ? errorResponse(500, { errorMessage: 'Disk error' })
        : jsonResponse({ id: 'master-page', title: 'Master Page', children: [{ id: 'home', title: 'Home' }] }),
    );
    renderAt();
    expect(await screen.findByText('Failed to retrieve Sitemap.')).toBeInTheDocument();
    expect(screen.getByText('Disk error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
    fail = false;
    const before = calls();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(useSelectionStore.getState().page).toEqual({ id: 'home', title: 'Home' }));
    expect(calls()).toBe(before + 1);
    expect(screen.queryByText('Failed to retrieve Sitemap.')).toBeNull();
  });

  it('Cancel goes to the domain dashboard', async () => {
    server(() => errorResponse(502));
    const { router } = renderAt();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/domain/1/dashboard'));
    expect(useSelectionStore.getState().portal).toBeNull();
  });

  it('a reopen of the workspace on the same branch loads the sitemap again and keeps the page', async () => {
    const calls = server(() =>
      jsonResponse({ id: 'master-page', title: 'Master Page', children: [{ id: 'home', title: 'Home' }] }),
    );
    renderAt();
    await waitFor(() => expect(useSelectionStore.getState().page).toEqual({ id: 'home', title: 'Home' }));
    expect(calls()).toBe(1);
    // What Reload Now / Revert do (workspaceRefresh.reopenPortal): the same portal and branch again.
    const { portal, portalInfo } = useSelectionStore.getState();
    selectPortal(portal!, portalInfo!, 'master', 'en_GB');
    expect(useSelectionStore.getState().page).toBeNull();
    await waitFor(() => expect(useSelectionStore.getState().page).toEqual({ id: 'home', title: 'Home' }));
    expect(calls()).toBe(2);
    expect(useSelectionStore.getState().sitemap?.id).toBe('master-page');
  });
});
