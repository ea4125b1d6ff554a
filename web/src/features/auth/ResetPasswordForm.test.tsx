import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { renderWithProviders } from '../../test/render';
import { ResetPasswordForm } from './ResetPasswordForm';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderForm() {
  const onBackToLogin = vi.fn();
  renderWithProviders(<ResetPasswordForm onBackToLogin={onBackToLogin} />);
  return { onBackToLogin };
}

describe('reset password form', () => {
  it('keeps Request Reset disabled while invalid', async () => {
    renderForm();
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Request Reset' });
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('New Password'), '1234');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('New Password'), '5');
    expect(button).toBeEnabled();
  });

  it('shows the required messages once the fields were visited', async () => {
    renderForm();
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Username'));
    await user.click(screen.getByLabelText('New Password'));
    await user.tab();
    expect(screen.getByText('The field is required')).toBeInTheDocument();
    expect(screen.getByText('The field is Required.')).toBeInTheDocument();
  });

  it('asks for at least 5 characters', async () => {
    renderForm();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'abc');
    await user.tab();
    expect(screen.getByText('Your password needs to be at least 5 characters.')).toBeInTheDocument();
  });

  it('sends userName and newPassword, confirms for 5 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetch = mockFetch({ 'POST api/v1/user/reset-password': () => jsonResponse({}) });
    renderForm();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(screen.getByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('New Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Request Reset' }));
    expect(await screen.findByText('Please check your email for the password reset link')).toBeInTheDocument();
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ userName: 'ada', newPassword: 'secret1' });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(screen.queryByText('Please check your email for the password reset link')).not.toBeInTheDocument();
  });

  it("shows '{title}. {message}' built from 'Could not reset password' on failure", async () => {
    mockFetch({ 'POST api/v1/user/reset-password': () => errorResponse(404, { errorMessage: 'No such user' }) });
    renderForm();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'nobody');
    await user.type(screen.getByLabelText('New Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Request Reset' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reset password. No such user');
  });

  it("goes back with 'Go to login'", async () => {
    const { onBackToLogin } = renderForm();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Go to login' }));
    expect(onBackToLogin).toHaveBeenCalledOnce();
  });
});
