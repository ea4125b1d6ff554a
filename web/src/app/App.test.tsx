import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTermsAccepted } from '../api/authStorage';
import { jsonResponse, loginResponse, mockFetch, sampleUser, textResponse } from '../test/helpers';
import '../features/domain/register';
import { App } from './App';
import { reloadPage } from '../core/location';
import { useOverlayStore } from '../core/overlayStore';
import { selectDomain } from '../core/selectionStore';
import { installSessionListeners, startSession } from '../core/session';
import { initialSessionState, useSessionStore } from '../core/sessionStore';
import { clearToasts } from '../core/toastService';

vi.mock('../core/location', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../core/location')>()),
  reloadPage: vi.fn(),
}));

const domains = [
  { id: 2, name: 'Zeta Air' },
  { id: 1, name: 'alpha rail' },
];

function backend(user = sampleUser) {
  return mockFetch({
    'GET api/v1/config/features': () => jsonResponse({ sso: { enabled: false } }),
    'POST api/v1/user/login': () => jsonResponse(loginResponse(user)),
    'GET assets/config/probe.config.json': () => jsonResponse({}),
    'GET api/v1/domain/': () => jsonResponse(domains),
    'GET api/v1/permissions/getUserRoles/7/2': () => jsonResponse({ roles: [], permissions: [], admin: false }),
    'GET api/v1/domain/2/account-meta': () => jsonResponse({ id: 2, name: 'Zeta Air', memberCount: 1, groupCount: 0 }),
    'POST api/v1/user/logout': () => new Response(null, { status: 204 }),
    'GET version.json': () => jsonResponse({ version: '3.4.10' }),
    'GET api/v1/config/backend-version': () => textResponse('3.4.10.42'),
  });
}

let stopListening: () => void = () => undefined;

async function startApp(hash = '#/') {
  window.history.replaceState(null, '', `/${hash}`);
  stopListening = installSessionListeners();
  void startSession();
  render(<App />);
}

async function signIn() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), 'ada');
  await user.type(screen.getByLabelText('Password'), 'secret');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByRole('heading', { name: /Welcome/ });
  return user;
}

beforeEach(() => {
  useSessionStore.setState({ ...initialSessionState });
  useOverlayStore.setState({ visible: false });
  selectDomain(null);
  setTermsAccepted(true);
});
afterEach(() => {
  stopListening();
  clearToasts();
  vi.unstubAllGlobals();
  vi.mocked(reloadPage).mockClear();
});

describe('the app', () => {
  it('signs in to the welcome dashboard with the domain count', async () => {
    backend();
    await startApp();
    await signIn();
    expect(screen.getByRole('heading', { name: 'Welcome, Ada' })).toBeInTheDocument();
    expect(screen.getByText('Select a domain in the side navigation to start.')).toBeInTheDocument();
    expect(await screen.findByTestId('domain-count')).toHaveTextContent('2');
  });

  it('selects a domain from the name-ordered list', async () => {
    backend();
    await startApp();
    const user = await signIn();
    const nav = screen.getByRole('navigation', { name: 'Side navigation' });
    expect(within(nav).getByText('No domain selected')).toBeInTheDocument();
    await user.click(within(nav).getByRole('button', { name: /Select Domain/ }));
    const list = await screen.findByRole('list', { name: 'Domains' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['alpha rail', 'Zeta Air']);
    await user.click(within(list).getByRole('button', { name: 'Zeta Air' }));
    await waitFor(() => expect(within(nav).getByText('Zeta Air')).toBeInTheDocument());
    // Choosing a domain opens its dashboard (domain/{id}/dashboard).
    expect(await screen.findByRole('heading', { name: 'Zeta Air' })).toBeInTheDocument();
    expect(window.location.hash).toBe('#/domain/2/dashboard');
    // Nothing registers portal pages yet, so no dead portal entries appear.
    expect(within(nav).queryByText('Select Portal')).not.toBeInTheDocument();
  });

  it('shows the versions from the side navigation', async () => {
    backend();
    await startApp();
    const user = await signIn();
    const button = screen.getByRole('button', { name: /^Version / });
    expect(button).toHaveTextContent(/^v3\.4\.10$/);
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Version' });
    await waitFor(() =>
      expect(within(dialog).getByRole('row', { name: /Combined version/ })).toHaveTextContent('3.4.10.042'),
    );
    expect(within(dialog).getByRole('row', { name: /Front-end version/ })).toHaveTextContent('3.4.10');
    expect(within(dialog).getByRole('row', { name: /Back-end version/ })).toHaveTextContent('3.4.10.042');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers the profile menu and logs out', async () => {
    backend();
    await startApp();
    const user = await signIn();
    await user.click(screen.getByRole('button', { name: /^Profile\b/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(menu).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(menu).getByText('Domain Roles')).toBeInTheDocument();
    expect(within(menu).queryByText('Edit Profile')).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(reloadPage).toHaveBeenCalled());
  });

  it("labels admins 'Admin' in the profile menu", async () => {
    backend({ ...sampleUser, admin: true });
    await startApp();
    const user = await signIn();
    await user.click(screen.getByRole('button', { name: /^Profile\b/ }));
    expect(within(await screen.findByRole('menu')).getByText('Admin')).toBeInTheDocument();
  });

  it("shows 'page not found' with a link home on #/404", async () => {
    backend();
    await startApp('#/404');
    expect(await screen.findByText('page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
  });

  it('shows the maintenance page', async () => {
    backend();
    await startApp('#/maintenance');
    expect(await screen.findByRole('heading', { name: 'Scheduled Maintenance' })).toBeInTheDocument();
    expect(screen.getByText('We are down for scheduled maintenance. Please check back later.')).toBeInTheDocument();
  });

  it('redirects unknown routes to the root', async () => {
    backend();
    await startApp('#/no/such/page');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(window.location.hash).toBe('#/');
  });

  it("shows 'Connection unstable' while offline", async () => {
    backend();
    await startApp();
    await screen.findByRole('button', { name: 'Sign in' });
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(await screen.findByText('Connection unstable')).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(screen.queryByText('Connection unstable')).not.toBeInTheDocument());
  });
});
