import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import '../../features/profile/register';
import { jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { renderRoute, renderWithProviders } from '../../test/render';
import { useSessionStore } from '../../core/sessionStore';
import { useSelectionStore } from '../../core/selectionStore';
import { collapseCrumbs, documentationSections, Header } from './Header';

const probe = (extra: object) => ({
  ws: { host: '' },
  documentation: [],
  legalDocs: [],
  links: [],
  uploadFilter: { image: [] },
  ...extra,
});

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser }, probeConfig: probe({}) });
});
afterEach(() => vi.unstubAllGlobals());

describe('documentation menu', () => {
  it('is not displayed without configured links', () => {
    mockFetch({});
    renderWithProviders(<Header />);
    expect(screen.queryByRole('button', { name: 'Documentation' })).not.toBeInTheDocument();
    expect(documentationSections(null)).toEqual([]);
  });

  it('lists the configured documentation, legal documents and links', async () => {
    mockFetch({});
    useSessionStore.setState({
      probeConfig: probe({
        documentation: [{ title: 'User guide', url: 'https://docs.example/guide' }],
        links: [{ title: 'Status page', url: 'https://status.example' }],
      }),
    });
    renderWithProviders(<Header />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Documentation' }));
    const menu = screen.getByRole('menu');
    const guide = within(menu).getByRole('menuitem', { name: 'User guide' });
    expect(guide).toHaveAttribute('href', 'https://docs.example/guide');
    expect(guide).toHaveAttribute('target', '_blank');
    expect(within(menu).getByRole('menuitem', { name: 'Status page' })).toBeInTheDocument();
    expect(within(menu).queryByText('Legal')).not.toBeInTheDocument();
  });
});

describe('profile menu', () => {
  it("lists a non-admin's roles per domain and opens Edit Profile", async () => {
    mockFetch({
      'GET api/v1/user/7/roles': () =>
        jsonResponse([
          { domainId: 1, domainName: 'Alpha Air', roles: ['Editors', 'Managers'] },
          { domainId: 2, domainName: 'Beta Rail', roles: [] },
        ]),
    });
    renderWithProviders(<Header />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Profile\b/ }));
    const menu = screen.getByRole('menu');
    expect(within(menu).getByText('Domain Roles')).toBeInTheDocument();
    expect(await within(menu).findByText(/Editors, Managers/)).toBeInTheDocument();
    expect(within(menu).getByText('Beta Rail')).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Edit Profile' }));
    expect(await screen.findByRole('dialog', { name: 'Edit Profile' })).toBeInTheDocument();
  });

  it("shows 'Admin' for admins without asking for roles", async () => {
    const fetch = mockFetch({});
    useSessionStore.setState({ user: { ...sampleUser, admin: true } });
    renderWithProviders(<Header />);
    await userEvent.setup().click(screen.getByRole('button', { name: /^Profile\b/ }));
    expect(within(screen.getByRole('menu')).getByText('Admin')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('breadcrumbs in the header', () => {
  const explorer = '/domain/1/portal/1/branch/master/en_GB/file-explorer';
  afterEach(() => useSelectionStore.setState({ domain: null, portal: null }));

  it('collapses the middle crumbs behind an ellipsis that lists the whole path', async () => {
    mockFetch({});
    expect(collapseCrumbs(['Portal', 'a', 'b'], 3)).toEqual({ shown: ['Portal', 'a', 'b'], hidden: [] });
    useSelectionStore.setState({
      domain: { id: 1, name: 'Demo Airline' } as never,
      portal: { id: 1, name: 'Crew Portal' } as never,
    });
    renderRoute([{ path: '*', element: <Header /> }], explorer);
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    expect(within(crumbs).getByText('File Explorer')).toHaveAttribute('aria-current', 'page');
    expect(within(crumbs).getByText('master')).toBeInTheDocument();
    expect(within(crumbs).queryByText('Crew Portal')).not.toBeInTheDocument();
    await userEvent.setup().click(within(crumbs).getByRole('button', { name: 'Show the full path (2 more)' }));
    const full = screen.getByRole('list', { name: 'Full path' });
    expect(
      within(full)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Portal', 'Demo Airline', 'Crew Portal', 'master', 'en_GB', 'File Explorer']);
  });
});
