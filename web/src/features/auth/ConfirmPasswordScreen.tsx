import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { userApi } from '../../api/user';
import { completeLogin } from '../../core/session';
import { ActionFailure, useAction } from '../../ui/useAction';
import { AuthCard } from './AuthCard';
import { AUTH_MESSAGES, validateConfirmPassword } from './validation';

export const RESET_CONFIRMED_MESSAGE = 'Your password has been reset. You can now log in with it.';

/**
 * Confirm-password screen, route confirm-password/:uuid (spec 1 §2.1, §2.4):
 * the page the password-reset e-mail links to. The user types the new
 * password once more; the uuid is the reset token. The link may carry the
 * account as `?username=`. When the server answers with tokens the user is
 * signed in; otherwise they continue to the login screen.
 */
export default function ConfirmPasswordScreen() {
  const { uuid = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [confirmPassword, setConfirmPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const error = validateConfirmPassword(confirmPassword);
  const confirm = useAction({
    action: async () => {
      const response = await userApi.confirmResetPassword({
        confirmedPassword: confirmPassword,
        token: uuid,
        username: search.get('username') ?? '',
      });
      if (response?.id_token && response.profile) {
        navigate('/', { replace: true });
        await completeLogin({ ...response, id_token: response.id_token, profile: response.profile });
        return;
      }
      setDone(true);
    },
    failure: AUTH_MESSAGES.confirmFailure,
  });
  const busy = confirm.pending;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTouched(true);
    if (error || busy) return;
    setFailure(null);
    try {
      await confirm.submit();
    } catch (cause) {
      if (cause instanceof ActionFailure) setFailure(AUTH_MESSAGES.confirmFailure);
    }
  }

  return (
    <AuthCard title="Confirm password reset">
      <Box component="form" noValidate onSubmit={handleSubmit} aria-label="Confirm password reset">
        <Stack spacing={2}>
          {/* Lets password managers know which account the new password belongs to. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={search.get('username') ?? ''}
            readOnly
            hidden
          />
          {done ? (
            <Alert severity="success" role="alert">
              {RESET_CONFIRMED_MESSAGE}
            </Alert>
          ) : (
            <TextField
              label="Confirm password"
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              autoFocus
              fullWidth
              value={confirmPassword}
              onChange={(e) => setConfirmPassword(e.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && !!error}
              helperText={(touched && error) || ' '}
            />
          )}
          {failure && (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          )}
          {!done && (
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={busy}
              startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
            >
              RESET
            </Button>
          )}
          <Box sx={{ textAlign: 'center' }}>
            <Link component={RouterLink} to="/" variant="body2">
              Log in
            </Link>
          </Box>
        </Stack>
      </Box>
    </AuthCard>
  );
}
