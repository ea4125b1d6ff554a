import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { useSessionStore } from '../../core/sessionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { renderWithProviders } from '../../test/render';
import ProfileDialog from './ProfileDialog';
import { validatePasswords } from './LoginDetailsTab';

const toastTexts = () => useToastStore.getState().toasts.map((t) => [t.type, t.title ?? '', t.message]);
const bodyOf = (fetch: ReturnType<typeof mockFetch>, index = 0) =>
  JSON.parse(String(fetch.mock.calls[index][1]?.body)) as Record<string, unknown>;

function open(user: typeof sampleUser | (Omit<typeof sampleUser, 'publicKey'> & { publicKey: string }) = sampleUser) {
  useSessionStore.setState({ status: 'loggedIn', user: { ...user } });
  renderWithProviders(<ProfileDialog open onClose={() => undefined} />);
  return userEvent.setup();
}

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  clearToasts();
});
afterEach(() => vi.unstubAllGlobals());

describe('profile dialog', () => {
  it('has the four tabs, User Details first', () => {
    open();
    expect(screen.getByRole('dialog', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'User Details',
      'Login Details',
      'User Preferences',
      'SSH Key',
    ]);
    expect(screen.getByLabelText(/First name/)).toHaveValue('Ada');
  });
});

describe('User Details', () => {
  it('refuses special characters, keeps Save disabled, then saves a valid change', async () => {
    const fetch = mockFetch({
      'PUT api/v1/user/update': ({ init }) =>
        jsonResponse({ ...sampleUser, ...(JSON.parse(String(init.body)) as object) }),
    });
    const user = open();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled(); // unchanged

    const first = screen.getByLabelText(/First name/);
    await user.clear(first);
    await user.type(first, 'J0hn');
    expect(screen.getByText('Please do not use special characters.')).toBeInTheDocument();
    expect(save).toBeDisabled();

    await user.clear(first);
    expect(screen.getByText('The field is required')).toBeInTheDocument();
    expect(save).toBeDisabled();

    await user.type(first, 'John');
    expect(screen.queryByText('Please do not use special characters.')).not.toBeInTheDocument();
    expect(save).toBeEnabled();
    await user.click(save);

    await waitFor(() => expect(useSessionStore.getState().user?.firstName).toBe('John'));
    expect(bodyOf(fetch)).toEqual({
      id: 7,
      firstName: 'John',
      middleName: '',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      optOutNotification: false,
    });
    expect(toastTexts()).toContainEqual(['SUCCESS', '', 'Profile Updated.']);
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('lets only admins edit the e-mail and checks its format', async () => {
    open();
    expect(screen.getByLabelText(/Email/)).toBeDisabled();
  });

  it('validates the e-mail of an admin', async () => {
    const user = open({ ...sampleUser, admin: true });
    const email = screen.getByLabelText(/Email/);
    expect(email).toBeEnabled();
    await user.clear(email);
    await user.type(email, 'ada@example');
    expect(screen.getByText('Please enter valid email address')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it("shows 'Could Not Update your Profile' when the update fails", async () => {
    mockFetch({ 'PUT api/v1/user/update': () => errorResponse(400, { errorMessage: 'Nope.' }) });
    const user = open();
    await user.type(screen.getByLabelText(/Middle name/), 'Byron');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(['DANGER', 'Could Not Update your Profile', 'Nope.']));
    expect(useSessionStore.getState().user?.middleName).toBe('');
  });

  it('does not replace the session user when the ids differ', async () => {
    mockFetch({ 'PUT api/v1/user/update': () => jsonResponse({ ...sampleUser, id: 99, firstName: 'Other' }) });
    const user = open();
    await user.type(screen.getByLabelText(/Middle name/), 'B');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(['SUCCESS', '', 'Profile Updated.']));
    expect(useSessionStore.getState().user?.firstName).toBe('Ada');
  });
});

describe('Login Details', () => {
  async function openTab() {
    const user = open();
    await user.click(screen.getByRole('tab', { name: 'Login Details' }));
    return user;
  }

  it('shows the user name read-only and applies the password rules', async () => {
    const user = await openTab();
    expect(screen.getByLabelText('User name')).toHaveValue('ada');
    expect(screen.getByLabelText('User name')).toHaveAttribute('readonly');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    await user.type(screen.getByLabelText(/Current password/), 'secret');
    await user.type(screen.getByLabelText(/^New password/), '1234');
    expect(screen.getByText('Your password needs to be at least 5 characters.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'secret');
    expect(screen.getByText("The new password can't be the same as the current password")).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'better');
    await user.type(screen.getByLabelText(/Confirm new password/), 'bettor');
    expect(screen.getByText("The confirm new password doesn't match the new password")).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(screen.getByLabelText(/Confirm new password/));
    // Issue 22 item 11: the spec's own wording for an empty confirmation.
    expect(
      validatePasswords({ currentPassword: 'secret', newPassword: 'better', confirmPassword: '' }).confirmPassword,
    ).toBe('The new password must be confirmed.');
    await user.type(screen.getByLabelText(/Confirm new password/), 'better');
    expect(save).toBeEnabled();
  });

  it('shows the server message for a wrong current password, then changes it', async () => {
    let wrong = true;
    const fetch = mockFetch({
      'PUT api/v1/user/password': () =>
        wrong
          ? errorResponse(400, { errorMessage: 'The current password is incorrect.' })
          : new Response(null, { status: 204 }),
    });
    const user = await openTab();
    await user.type(screen.getByLabelText(/Current password/), 'wrong1');
    await user.type(screen.getByLabelText(/^New password/), 'better');
    await user.type(screen.getByLabelText(/Confirm new password/), 'better');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The current password is incorrect.');

    wrong = false;
    await user.clear(screen.getByLabelText(/Current password/));
    await user.type(screen.getByLabelText(/Current password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(['SUCCESS', '', 'Password Changed.']));
    expect(bodyOf(fetch, 1)).toEqual({ currentPassword: 'secret', newPassword: 'better' });
    expect(screen.getByLabelText(/Current password/)).toHaveValue('');
  });
});

describe('User Preferences', () => {
  it('enables Save only when changed and sends the whole details with the preference', async () => {
    const fetch = mockFetch({
      'PUT api/v1/user/update': () => jsonResponse({ ...sampleUser, optOutNotification: true }),
    });
    const user = open();
    await user.click(screen.getByRole('tab', { name: 'User Preferences' }));
    const save = screen.getByRole('button', { name: 'Save' });
    const box = screen.getByRole('checkbox', { name: 'Opt out of email notifications' });
    expect(save).toBeDisabled();
    await user.click(box);
    expect(save).toBeEnabled();
    await user.click(box);
    expect(save).toBeDisabled();
    await user.click(box);
    await user.click(save);
    await waitFor(() => expect(useSessionStore.getState().user?.optOutNotification).toBe(true));
    expect(bodyOf(fetch)).toEqual({
      id: 7,
      firstName: 'Ada',
      middleName: '',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      optOutNotification: true,
    });
    expect(toastTexts()).toContainEqual(['SUCCESS', '', 'Profile Updated.']);
  });
});

describe('SSH Key', () => {
  const pair = {
    publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample ada',
    privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----\n',
  };

  it('generates a key pair into both fields', async () => {
    mockFetch({ 'PUT api/v1/user/createkey': () => jsonResponse(pair) });
    const user = open();
    await user.click(screen.getByRole('tab', { name: 'SSH Key' }));
    expect(screen.getByLabelText(/Private key/)).toHaveAttribute('readonly');
    await user.click(screen.getByRole('button', { name: 'Generate Key' }));
    await waitFor(() => expect(screen.getByLabelText(/Public key/)).toHaveValue(pair.publicKey));
    expect(screen.getByLabelText(/Private key/)).toHaveValue(pair.privateKey);
    expect(useSessionStore.getState().user?.publicKey).toBe(pair.publicKey);
  });

  it("shows 'Could Not retrieve private key' when generating fails", async () => {
    mockFetch({ 'PUT api/v1/user/createkey': () => errorResponse(500) });
    const user = open();
    await user.click(screen.getByRole('tab', { name: 'SSH Key' }));
    await user.click(screen.getByRole('button', { name: 'Generate Key' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(['DANGER', '', 'Could Not retrieve private key']));
  });

  it('requires a public key and saves a pasted one', async () => {
    const fetch = mockFetch({
      'PUT api/v1/user/publickey': () => jsonResponse({ ...sampleUser, publicKey: 'ssh-ed25519 AAAA key' }),
    });
    const user = open({ ...sampleUser, publicKey: 'ssh-ed25519 OLD' });
    await user.click(screen.getByRole('tab', { name: 'SSH Key' }));
    const field = screen.getByLabelText(/Public key/);
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.clear(field);
    expect(screen.getByText('Public Key input is required')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(field, 'ssh-ed25519 AAAA key');
    expect(save).toBeEnabled();
    await user.click(save);
    await waitFor(() => expect(useSessionStore.getState().user?.publicKey).toBe('ssh-ed25519 AAAA key'));
    expect(bodyOf(fetch)).toEqual({ publicKey: 'ssh-ed25519 AAAA key' });
    expect(within(screen.getByRole('dialog')).queryByRole('alert')).not.toBeInTheDocument();
  });
});
