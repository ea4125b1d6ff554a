import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import { userApi } from '../../api/user';
import { ActionFailure, useAction } from '../../ui/useAction';
import { ViewLink } from './AuthCard';
import {
  AUTH_MESSAGES,
  describeResetFailure,
  hasErrors,
  MAX_USERNAME_LENGTH,
  RESET_SUCCESS_VISIBLE_MS,
  validateResetPassword,
  type ResetPasswordValues,
} from './validation';

type Touched = Partial<Record<keyof ResetPasswordValues, boolean>>;

/**
 * Reset-password view (spec 1 §2.4, §5.1, §8): the user names the account and
 * the new password; the server mails a confirmation link.
 */
export function ResetPasswordForm({ onBackToLogin }: { onBackToLogin: () => void }) {
  const [values, setValues] = useState<ResetPasswordValues>({ username: '', newPassword: '' });
  const [touched, setTouched] = useState<Touched>({});
  const [success, setSuccess] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = validateResetPassword(values);
  const reset = useAction({
    action: () => userApi.resetPassword({ userName: values.username.trim(), newPassword: values.newPassword }),
    failure: 'Could not reset the password',
  });
  const busy = reset.pending;

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(null), RESET_SUCCESS_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [success]);

  const field = (name: keyof ResetPasswordValues) => ({
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    error: !!touched[name] && !!errors[name],
    // A blank helper keeps the height fixed, so a message appearing on blur does not move the buttons.
    helperText: (touched[name] && errors[name]) || ' ',
    fullWidth: true,
  });

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ username: true, newPassword: true });
    if (hasErrors(errors) || busy) return;
    setFailure(null);
    setSuccess(null);
    try {
      await reset.submit();
      setSuccess(AUTH_MESSAGES.resetSuccess);
    } catch (cause) {
      if (cause instanceof ActionFailure) setFailure(describeResetFailure(toApiError(cause.error)));
    }
  }

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-label="Reset password">
      <Stack spacing={2}>
        <TextField
          label="Username"
          autoComplete="username"
          autoFocus
          slotProps={{ htmlInput: { maxLength: MAX_USERNAME_LENGTH } }}
          {...field('username')}
        />
        <TextField label="New Password" type="password" autoComplete="new-password" {...field('newPassword')} />
        {success && (
          <Alert severity="success" role="alert">
            {success}
          </Alert>
        )}
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={hasErrors(errors) || busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
        >
          Request Reset
        </Button>
        <Box sx={{ textAlign: 'center' }}>
          <ViewLink onClick={onBackToLogin}>Go to login</ViewLink>
        </Box>
      </Stack>
    </Box>
  );
}
