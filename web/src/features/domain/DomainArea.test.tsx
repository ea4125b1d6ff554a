import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { renderRoute } from '../../test/render';
import DomainDashboard from './DomainDashboard';
import DomainEmail from './DomainEmail';

const members = [
  { id: 7, userName: 'ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  { id: 8, userName: 'bob', firstName: 'Bob', lastName: 'Builder', email: 'bob@example.com' },
];

const toastTexts = () => useToastStore.getState().toasts.map((t) => [t.type, t.message]);

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser } });
  useSelectionStore.setState({ ...initialSelectionState, domain: { id: 3, name: 'Alpha Air' } });
  clearToasts();
});
afterEach(() => vi.unstubAllGlobals());

function renderEmail() {
  return renderRoute([{ path: 'domain/:domain/email', element: <DomainEmail /> }], '/domain/3/email');
}

describe('domain email', () => {
  it('shows the permission message without domain_user_create', () => {
    mockFetch({});
    setDomainPermissions(3, [], ['page_read']);
    renderEmail();
    expect(
      screen.getByText(
        'You do not have the right permission to access to this section. Please contact your Administrator',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it('sends to all members', async () => {
    const fetch = mockFetch({ 'POST api/v1/user/send-email': () => jsonResponse({ queued: 2, noEmail: [] }) });
    setDomainPermissions(3, ['Managers'], ['domain_user_create']);
    renderEmail();
    const user = userEvent.setup();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(screen.getByLabelText(/Subject/), 'Maintenance');
    await user.type(screen.getByLabelText(/Message/), 'The portal is down tonight.');
    expect(send).toBeEnabled();
    await user.click(send);
    await waitFor(() => expect(toastTexts()).toContainEqual(['SUCCESS', '2 e-mails queued']));
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      domainId: 3,
      userIds: [],
      subject: 'Maintenance',
      message: 'The portal is down tonight.',
    });
    expect(screen.getByLabelText(/Subject/)).toHaveValue('');
  });

  it('sends to chosen members, and needs at least one', async () => {
    const fetch = mockFetch({
      'GET api/v1/domain/users/3': () => jsonResponse(members),
      'POST api/v1/user/send-email': () => jsonResponse({ queued: 1 }),
    });
    setDomainPermissions(3, [], ['domain_user_create']);
    renderEmail();
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Chosen members' }));
    const bob = await screen.findByRole('checkbox', { name: 'Bob Builder (bob)' });
    await user.type(screen.getByLabelText(/Subject/), 'Hello');
    await user.type(screen.getByLabelText(/Message/), 'Hi Bob');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.click(bob);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(['SUCCESS', '1 e-mail queued']));
    const body = JSON.parse(String(fetch.mock.calls.at(-1)?.[1]?.body)) as { userIds: unknown[] };
    expect(body.userIds).toEqual([8]);
  });

  it('shows the server message when sending fails', async () => {
    mockFetch({
      'POST api/v1/user/send-email': () => errorResponse(400, { errorMessage: 'The domain has no users to e-mail.' }),
    });
    setDomainPermissions(3, [], ['domain_user_create']);
    renderEmail();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Subject/), 'Hello');
    await user.type(screen.getByLabelText(/Message/), 'Hi');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The domain has no users to e-mail.');
  });
});

describe('domain dashboard', () => {
  function renderDashboard() {
    return renderRoute([{ path: 'domain/:domain/dashboard', element: <DomainDashboard /> }], '/domain/3/dashboard');
  }

  it('shows the name, counts, roles and the logo', async () => {
    const created: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (b: Blob) => {
          created.push(b);
          return 'blob:logo';
        },
        revokeObjectURL: () => undefined,
      }),
    );
    mockFetch({
      'GET api/v1/domain/3/account-meta': () =>
        jsonResponse({ id: 3, name: 'Alpha Air', memberCount: 4, groupCount: 2, hasLogo: true }),
      'GET api/v1/domain/3/logo': () =>
        new Response(new Blob(['png'], { type: 'image/png' }), {
          status: 200,
          headers: { 'Content-Type': 'image/png' },
        }),
    });
    setDomainPermissions(3, ['Editors', 'Managers'], ['page_read']);
    renderDashboard();
    expect(screen.getByRole('heading', { name: 'Alpha Air' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Members')).toHaveTextContent('4');
    expect(screen.getByLabelText('Groups')).toHaveTextContent('2');
    expect(screen.getByRole('list', { name: 'Your roles' })).toHaveTextContent('EditorsManagers');
    expect(await screen.findByRole('img', { name: 'Alpha Air logo' })).toHaveAttribute('src', 'blob:logo');
    expect(created).toHaveLength(1);
  });

  it('hides the logo when the domain has none', async () => {
    mockFetch({
      'GET api/v1/domain/3/account-meta': () =>
        jsonResponse({ id: 3, name: 'Alpha Air', memberCount: 1, groupCount: 0 }),
      'GET api/v1/domain/3/logo': () => errorResponse(404),
    });
    renderDashboard();
    expect(await screen.findByLabelText('Members')).toHaveTextContent('1');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('You have no role in this domain.')).toBeInTheDocument();
  });
});
