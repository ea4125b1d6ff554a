import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, mockFetch } from '../../test/helpers';
import { renderRoute } from '../../test/render';
import ConfirmPasswordScreen, { RESET_CONFIRMED_MESSAGE } from './ConfirmPasswordScreen';

afterEach(() => vi.unstubAllGlobals());

const renderScreen = (path = '/confirm-password/abc-123') =>
  renderRoute([{ path: '/confirm-password/:uuid', element: <ConfirmPasswordScreen /> }], path);

describe('confirm password screen', () => {
  it("asks 'Please confirm your password' when empty", async () => {
    const fetch = mockFetch({});
    renderScreen();
    await userEvent.setup().click(screen.getByRole('button', { name: 'RESET' }));
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Log in' })).toBeInTheDocument();
  });

  it('confirms with the token from the URL', async () => {
    const fetch = mockFetch({ 'POST api/v1/user/confirm-reset-password': () => new Response(null, { status: 204 }) });
    renderScreen('/confirm-password/abc-123?username=ada');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Confirm password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'RESET' }));
    expect(await screen.findByText(RESET_CONFIRMED_MESSAGE)).toBeInTheDocument();
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({
      confirmedPassword: 'secret1',
      token: 'abc-123',
      username: 'ada',
    });
  });

  it("shows 'Password or Token was invalid, try again.' on failure", async () => {
    mockFetch({ 'POST api/v1/user/confirm-reset-password': () => errorResponse(400) });
    renderScreen();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Confirm password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'RESET' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Password or Token was invalid, try again.');
  });
});
