import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { storeTokens } from '../../api/authStorage';
import { useSessionStore } from '../../core/sessionStore';
import { ToastStack } from '../../ui/ToastStack';
import { clearToasts } from '../../core/toastService';
import { loginResponse } from '../../test/helpers';
import { renderRoute } from '../../test/render';
import { adminUser } from '../../test/render';
import SearchScreen from './SearchScreen';
import { queryOf } from '../../test/helpers';
import { portal } from './fixtures';

afterEach(() => vi.unstubAllGlobals());

function render(user: typeof sampleUser = adminUser) {
  clearToasts();
  storeTokens(loginResponse(user));
  useSessionStore.setState({ status: 'loggedIn', user });
  const utils = renderRoute(
    [
      {
        path: '/admin/search',
        element: (
          <>
            <SearchScreen />
            <ToastStack />
          </>
        ),
      },
      { path: '/domain/:domain/portal/:portal/branch/:branch/:language/dashboard', element: <h1>Dashboard</h1> },
    ],
    '/admin/search',
  );
  return { ...utils, user: userEvent.setup() };
}

describe('Admin Search', () => {
  it('finds portals by name part and opens one on its dashboard', async () => {
    const fetch = mockFetch({
      'GET api/v1/search/portals': ({ url }) =>
        jsonResponse(
          url.includes('pn=crew')
            ? [
                portal(1, 'Crew Portal', { activeBranch: 'release/2026' }),
                portal(3, 'Legacy Crew Portal', { status: 'inactive' }),
              ]
            : [],
        ),
    });
    const { user, router } = render();
    const search = screen.getByRole('button', { name: 'Search' });
    expect(search).toBeDisabled();
    await user.type(screen.getByLabelText('Part of the portal name'), 'crew');
    await user.click(search);
    const table = await screen.findByRole('table', { name: 'Search results' });
    expect(queryOf(fetch, 'GET api/v1/search/portals').get('pn')).toBe('crew');
    const row = within(table).getByRole('row', { name: 'Open Crew Portal' });
    expect(row).toHaveTextContent('Active');
    expect(within(table).getByRole('row', { name: 'Open Legacy Crew Portal' })).toHaveTextContent('Inactive');
    await user.click(row);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/1/branch/release:2026/en_GB/dashboard'),
    );
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('searches by portal id and says when nothing is found', async () => {
    const fetch = mockFetch({ 'GET api/v1/search/portals': () => jsonResponse([]) });
    const { user } = render();
    await user.click(screen.getByRole('combobox', { name: 'Search by' }));
    await user.click(await screen.findByRole('option', { name: 'Portal id' }));
    const input = screen.getByLabelText('Portal id');
    await user.type(input, 'abc');
    expect(screen.getByText('Enter a portal id (a number).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    await user.clear(input);
    await user.type(input, '42{Enter}');
    expect(await screen.findByText('No Items found')).toBeInTheDocument();
    const query = queryOf(fetch, 'GET api/v1/search/portals');
    expect(query.get('uuid')).toBe('42');
    expect(query.get('pn')).toBeNull();
  });

  it('is for admins only', () => {
    mockFetch({});
    render(sampleUser);
    expect(screen.getByRole('alert')).toHaveTextContent('You do not have the right permission');
  });
});
