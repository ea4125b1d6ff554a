import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getIdToken, getRememberMe, getTermsAccepted, setTermsAccepted } from '../../api/authStorage';
import { useSessionStore } from '../../core/sessionStore';
import { errorResponse, jsonResponse, loginResponse, mockFetch } from '../../test/helpers';
import { renderRoute, renderWithProviders } from '../../test/render';
import { AuthScreen } from './AuthScreen';
import { ssoLoginHref } from './LoginForm';

const probeConfig = { ws: { host: '' }, documentation: [], legalDocs: [], links: [], uploadFilter: { image: [] } };

function loginAnswers(answer: () => Response) {
  return mockFetch({
    'POST api/v1/user/login': answer,
    'GET assets/config/probe.config.json': () => jsonResponse(probeConfig),
  });
}

async function fillAndSubmit(username = 'ada', password = 'secret') {
  const user = userEvent.setup();
  if (username) await user.type(screen.getByLabelText('Username'), username);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

beforeEach(() => {
  useSessionStore.setState({ status: 'loggedOut', features: {} });
  setTermsAccepted(true);
});
afterEach(() => vi.unstubAllGlobals());

describe('login form', () => {
  it('shows the fields, checkboxes and links of the login view', () => {
    renderWithProviders(<AuthScreen />);
    expect(screen.getByLabelText('Username')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Remember Me' })).toBeInTheDocument();
    const terms = screen.getByRole('link', { name: 'Terms and Conditions' });
    expect(terms).toHaveAttribute('href', 'api/v1/document/pub/terms');
    expect(terms).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Forgot Password' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in with SSO' })).not.toBeInTheDocument();
  });

  it('keeps Sign in disabled until the terms are ticked, and remembers both choices', async () => {
    setTermsAccepted(false);
    renderWithProviders(<AuthScreen />);
    const signIn = screen.getByRole('button', { name: 'Sign in' });
    expect(signIn).toBeDisabled();
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }));
    expect(signIn).toBeEnabled();
    expect(getTermsAccepted()).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Remember Me' }));
    expect(getRememberMe()).toBe(true);
  });

  it("says 'Missing username or password' without calling the server", async () => {
    const fetch = loginAnswers(() => jsonResponse(loginResponse()));
    renderWithProviders(<AuthScreen />);
    await fillAndSubmit('ada', '');
    expect(screen.getByRole('alert')).toHaveTextContent('Missing username or password');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('signs in and enters the workspace', async () => {
    const fetch = loginAnswers(() => jsonResponse(loginResponse()));
    renderWithProviders(<AuthScreen />);
    await fillAndSubmit('ada', 'secret');
    await waitFor(() => expect(useSessionStore.getState().status).toBe('loggedIn'));
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ username: 'ada', password: 'secret' });
    expect(useSessionStore.getState().user?.userName).toBe('ada');
    expect(getIdToken()).not.toBeNull();
  });

  it.each([401, 500])("shows 'Incorrect Username or Password.' for %i", async (status) => {
    loginAnswers(() => errorResponse(status, { errorCode: 'INVALID_CREDENTIALS', errorMessage: 'whatever' }));
    renderWithProviders(<AuthScreen />);
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect Username or Password.');
    expect(useSessionStore.getState().status).toBe('loggedOut');
  });

  it("shows 'Missing username or password' for 400", async () => {
    loginAnswers(() => errorResponse(400));
    renderWithProviders(<AuthScreen />);
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Missing username or password');
  });

  it('shows the server message for 403', async () => {
    loginAnswers(() => errorResponse(403, { errorMessage: 'Your account is locked.' }));
    renderWithProviders(<AuthScreen />);
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is locked.');
  });

  it('shows the server message for 429', async () => {
    loginAnswers(() => errorResponse(429, { errorMessage: 'Too many attempts. Try again in 60 seconds.' }));
    renderWithProviders(<AuthScreen />);
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 60 seconds.');
  });

  it.each([149, '149'])('switches to the one-time form for 403 with code %s, carrying the username', async (code) => {
    loginAnswers(() => errorResponse(403, { errorCode: code, errorMessage: 'A one-time password was sent to you.' }));
    renderWithProviders(<AuthScreen />);
    await fillAndSubmit('grace', 'old-pass');
    expect(await screen.findByRole('button', { name: 'Create Password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveValue('grace');
    expect(screen.getByText('A one-time password was sent to you.')).toBeInTheDocument();
  });

  it("shows 'Unknown error. Please contact administrator.' for anything else", async () => {
    loginAnswers(() => errorResponse(404));
    renderWithProviders(<AuthScreen />);
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown error. Please contact administrator.');
  });

  it('switches to the reset view and back', async () => {
    renderWithProviders(<AuthScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Forgot Password' }));
    expect(screen.getByRole('button', { name: 'Request Reset' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to login' }));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('single sign-on', () => {
  it('shows the SSO button only when enabled', () => {
    useSessionStore.setState({
      features: { sso: { enabled: true, label: 'Sign in with SSO', loginUrl: '/api/v1/user/sso/login' } },
    });
    renderWithProviders(<AuthScreen />);
    expect(screen.getByRole('button', { name: 'Sign in with SSO' })).toBeInTheDocument();
  });

  it('sends the browser to the login URL with the return address', () => {
    expect(ssoLoginHref('/api/v1/user/sso/login', 'http://h/app/#/x')).toBe(
      '/api/v1/user/sso/login?returnTo=http%3A%2F%2Fh%2Fapp%2F%23%2Fx',
    );
    expect(ssoLoginHref('/sso?idp=a', 'http://h/')).toBe('/sso?idp=a&returnTo=http%3A%2F%2Fh%2F');
  });
});

describe('single sign-on errors', () => {
  it('shows ssoError from the URL in the alert and removes it from the URL', async () => {
    useSessionStore.setState({ features: { sso: { enabled: true, loginUrl: '/sso' } } });
    const { router } = renderRoute(
      [{ path: '*', element: <AuthScreen /> }],
      '/?ssoError=Single%20sign-on%20was%20cancelled%20or%20denied.&x=1',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Single sign-on was cancelled or denied.');
    await waitFor(() => expect(router.state.location.search).toBe('?x=1'));
    expect(screen.getByRole('alert')).toHaveTextContent('Single sign-on was cancelled or denied.');
  });

  it('shows no alert without ssoError', () => {
    renderRoute([{ path: '*', element: <AuthScreen /> }], '/');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
