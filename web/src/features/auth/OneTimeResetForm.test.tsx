import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../core/sessionStore';
import { errorResponse, jsonResponse, loginResponse, mockFetch } from '../../test/helpers';
import { renderWithProviders } from '../../test/render';
import { OneTimeResetForm } from './OneTimeResetForm';

beforeEach(() => useSessionStore.setState({ status: 'loggedOut' }));
afterEach(() => vi.unstubAllGlobals());

function renderForm() {
  renderWithProviders(
    <OneTimeResetForm username="grace" message="Please choose a new password." onBackToLogin={() => undefined} />,
  );
  return userEvent.setup();
}

async function fill(user: ReturnType<typeof userEvent.setup>, otp: string, pass: string, confirm: string) {
  if (otp) await user.type(screen.getByLabelText('One-time password'), otp);
  if (pass) await user.type(screen.getByLabelText('New password'), pass);
  if (confirm) await user.type(screen.getByLabelText('Confirm new password'), confirm);
}

describe('one-time password form', () => {
  it('shows the carried-over username, the server message and the length hint', () => {
    renderForm();
    expect(screen.getByLabelText('Username')).toHaveValue('grace');
    expect(screen.getByText('Please choose a new password.')).toBeInTheDocument();
    expect(screen.getByText('Your password needs to be at least 5 characters')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Password' })).toBeDisabled();
  });

  it("marks every field 'The field is required' once visited", async () => {
    const user = renderForm();
    await user.click(screen.getByLabelText('One-time password'));
    await user.click(screen.getByLabelText('New password'));
    await user.click(screen.getByLabelText('Confirm new password'));
    await user.tab();
    expect(screen.getAllByText('The field is required')).toHaveLength(3);
  });

  it('requires the confirmation to match', async () => {
    const user = renderForm();
    await fill(user, 'otp-1', 'secret1', 'secret2');
    await user.tab();
    expect(screen.getByText('The field needs to match the inserted password.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Password' })).toBeDisabled();
  });

  it('creates the password, then signs in with it', async () => {
    const fetch = mockFetch({
      'POST api/v1/user/confirm-reset-password': () => new Response(null, { status: 204 }),
      'POST api/v1/user/login': () => jsonResponse(loginResponse()),
      'GET assets/config/probe.config.json': () => jsonResponse({}),
    });
    const user = renderForm();
    await fill(user, 'otp-1', 'secret1', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Password' }));
    await waitFor(() => expect(useSessionStore.getState().status).toBe('loggedIn'));
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({
      confirmedPassword: 'secret1',
      token: 'otp-1',
      username: 'grace',
    });
    expect(JSON.parse(String(fetch.mock.calls[1][1]?.body))).toEqual({ username: 'grace', password: 'secret1' });
  });

  it('uses the session the server answers with', async () => {
    const fetch = mockFetch({
      'POST api/v1/user/confirm-reset-password': () => jsonResponse(loginResponse()),
      'GET assets/config/probe.config.json': () => jsonResponse({}),
    });
    const user = renderForm();
    await fill(user, 'otp-1', 'secret1', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Password' }));
    await waitFor(() => expect(useSessionStore.getState().status).toBe('loggedIn'));
    expect(fetch.mock.calls.map(([url]) => String(url))).not.toContain('api/v1/user/login');
  });

  it('shows the server message on failure', async () => {
    mockFetch({
      'POST api/v1/user/confirm-reset-password': () => errorResponse(400, { errorMessage: 'Token expired' }),
    });
    const user = renderForm();
    await fill(user, 'otp-1', 'secret1', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Token expired');
  });

  it("falls back to 'Unknown Error occured'", async () => {
    mockFetch({ 'POST api/v1/user/confirm-reset-password': () => new Response('', { status: 501 }) });
    const user = renderForm();
    await fill(user, 'otp-1', 'secret1', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown Error occured');
  });

  it("reads 'Creating new password' while busy", async () => {
    mockFetch({ 'POST api/v1/user/confirm-reset-password': () => new Promise<Response>(() => undefined) });
    const user = renderForm();
    await fill(user, 'otp-1', 'secret1', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Password' }));
    expect(await screen.findByRole('button', { name: 'Creating new password' })).toBeDisabled();
  });
});
