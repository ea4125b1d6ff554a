import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import { userApi } from '../../api/user';
import { completeLogin, signIn } from '../../core/session';
import { ActionFailure, useAction } from '../../ui/useAction';
import { ViewLink } from './AuthCard';
import {
  AUTH_MESSAGES,
  describeOneTimeFailure,
  describeLoginFailure,
  hasErrors,
  validateOneTimeReset,
  type OneTimeResetValues,
} from './validation';

type Touched = Partial<Record<keyof OneTimeResetValues, boolean>>;

interface Props {
  username: string;
  /** The server's explanation from the login answer (403, code 149). */
  message: string;
  onBackToLogin: () => void;
}

/** A failed step of Create Password, with the message the form shows. */
class OneTimeFailure extends Error {}

/**
 * One-time password reset (spec 1 §2.4, §5.1): after a login answered 403 with
 * code 149 the user enters the one-time password they were sent and chooses a
 * new password; on success they are signed in with it.
 */
export function OneTimeResetForm({ username, message, onBackToLogin }: Props) {
  const [values, setValues] = useState<OneTimeResetValues>({
    oneTimePassword: '',
    newPassword: '',
    confirmPassword: '',
  });
  const [touched, setTouched] = useState<Touched>({});
  const [failure, setFailure] = useState<string | null>(null);
  const errors = validateOneTimeReset(values);
  /** Sets the new password, then signs in with the session it answers or with the password. */
  const create = useAction({
    action: async () => {
      let session: Awaited<ReturnType<typeof userApi.confirmResetPassword>>;
      try {
        session = await userApi.confirmResetPassword({
          confirmedPassword: values.newPassword,
          token: values.oneTimePassword,
          username,
        });
      } catch (cause) {
        throw new OneTimeFailure(describeOneTimeFailure(toApiError(cause)));
      }
      try {
        // The server may answer with a session for the new password; otherwise sign in with it.
        if (session?.id_token && session.profile) {
          await completeLogin({ ...session, id_token: session.id_token, profile: session.profile });
        } else {
          await signIn(username, values.newPassword);
        }
      } catch (cause) {
        const outcome = describeLoginFailure(toApiError(cause));
        throw new OneTimeFailure(outcome.message || AUTH_MESSAGES.oneTimeFailure);
      }
    },
    failure: AUTH_MESSAGES.oneTimeFailure,
  });
  const busy = create.pending;

  // Every field keeps room for its message (a blank helper text when there is
  // none), so a message appearing on blur does not move the buttons.
  const field = (name: keyof OneTimeResetValues) => ({
    name,
    type: 'password',
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    error: !!touched[name] && !!errors[name],
    fullWidth: true,
  });

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched({ oneTimePassword: true, newPassword: true, confirmPassword: true });
    if (hasErrors(errors) || busy) return;
    setFailure(null);
    try {
      await create.submit();
    } catch (cause) {
      if (cause instanceof ActionFailure && cause.error instanceof OneTimeFailure) setFailure(cause.error.message);
    }
  }

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-label="Create password">
      <Stack spacing={2}>
        {message && (
          <Alert severity="info" role="status">
            {message}
          </Alert>
        )}
        <TextField label="Username" name="username" value={username} disabled fullWidth autoComplete="username" />
        <TextField
          label="One-time password"
          autoComplete="one-time-code"
          autoFocus
          helperText={(touched.oneTimePassword && errors.oneTimePassword) || ' '}
          {...field('oneTimePassword')}
        />
        <TextField
          label="New password"
          autoComplete="new-password"
          helperText={touched.newPassword && errors.newPassword ? errors.newPassword : AUTH_MESSAGES.passwordHint}
          {...field('newPassword')}
        />
        <TextField
          label="Confirm new password"
          autoComplete="new-password"
          helperText={(touched.confirmPassword && errors.confirmPassword) || ' '}
          {...field('confirmPassword')}
        />
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
          {busy ? AUTH_MESSAGES.creatingPassword : 'Create Password'}
        </Button>
        <Box sx={{ textAlign: 'center' }}>
          <ViewLink onClick={onBackToLogin}>Go to login</ViewLink>
        </Box>
      </Stack>
    </Box>
  );
}
