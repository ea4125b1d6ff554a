import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { renderRoute } from '../../test/render';
import { useSessionStore } from '../session/sessionStore';
import { PortalChainHost } from './PortalChainHost';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from './selectionStore';

const portal = (id: number, name: string) => ({ id, name, children: [] });

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser } });
  useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
  setDomainPermissions(1, ['Authors'], ['portal_read']);
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
