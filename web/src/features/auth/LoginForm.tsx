import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { getRememberMe, getTermsAccepted, setRememberMe, setTermsAccepted } from '../../api/authStorage';
import { TERMS_URL } from '../../api/documents';
import { toApiError } from '../../api/errors';
import { assignLocation } from '../../core/location';
import { signIn } from '../../core/session';
import { useSessionStore } from '../../core/sessionStore';
import { ActionFailure, useAction } from '../../ui/useAction';
import { ViewLink } from './AuthCard';
import { describeLoginFailure, MAX_USERNAME_LENGTH, validateLogin } from './validation';

export const DEFAULT_SSO_LABEL = 'Sign in with SSO';

/** The query parameter single sign-on puts its failure message in (`#/?ssoError=…`). */
export const SSO_ERROR_PARAM = 'ssoError';

/** The SSO login address with the page to come back to. */
export function ssoLoginHref(loginUrl: string, returnTo: string): string {
  return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}returnTo=${encodeURIComponent(returnTo)}`;
}

interface Props {
  onForgotPassword: () => void;
  /** 403 with code 149: continue in the one-time password form. */
  onOneTimeResetRequired: (username: string, message: string) => void;
}

/**
 * Login view (spec 1 §2.4). The fields are read from the form on submit, so
 * values the browser autofilled count even when no input event fired; Sign in
 * is enabled as soon as the terms are accepted.
 */
export function LoginForm({ onForgotPassword, onOneTimeResetRequired }: Props) {
  const sso = useSessionStore((s) => s.features.sso);
  const [terms, setTerms] = useState(getTermsAccepted);
  const [remember, setRemember] = useState(getRememberMe);
  const location = useLocation();
  const navigate = useNavigate();
  const ssoError = new URLSearchParams(location.search).get(SSO_ERROR_PARAM);
  const [error, setError] = useState<string | null>(ssoError);
  const login = useAction({
    action: ({ username, password }: { username: string; password: string }) => signIn(username, password),
    failure: 'Sign in failed',
  });
  const busy = login.pending;

  // A failed single sign-on comes back as #/?ssoError=…: show it, then take it out of the URL
  // so a reload or a bookmark does not show it again.
  useEffect(() => {
    if (ssoError === null) return;
    setError(ssoError);
    const params = new URLSearchParams(location.search);
    params.delete(SSO_ERROR_PARAM);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }, [ssoError, location.pathname, location.search, navigate]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!terms || busy) return;
    const data = new FormData(event.currentTarget);
    const username = String(data.get('username') ?? '').trim();
    const password = String(data.get('password') ?? '');
    const invalid = validateLogin(username, password);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    try {
      await login.submit({ username, password });
    } catch (cause) {
      if (!(cause instanceof ActionFailure)) return;
      const failure = describeLoginFailure(toApiError(cause.error));
      if (failure.kind === 'oneTimeReset') onOneTimeResetRequired(username, failure.message);
      else setError(failure.message);
    }
  }

  return (
    <Box component="form" noValidate onSubmit={handleSubmit} aria-label="Sign in">
      <Stack spacing={2}>
        {sso?.enabled && sso.loginUrl && (
          <>
            <Button
              variant="outlined"
              size="large"
              onClick={() => assignLocation(ssoLoginHref(sso.loginUrl ?? '', window.location.href))}
            >
              {sso.label || DEFAULT_SSO_LABEL}
            </Button>
            <Divider>or</Divider>
          </>
        )}
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          autoFocus
          fullWidth
          slotProps={{ htmlInput: { maxLength: MAX_USERNAME_LENGTH } }}
        />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" fullWidth />
        <Box>
          <FormControlLabel
            control={
              <Checkbox
                checked={terms}
                onChange={(e) => {
                  setTerms(e.target.checked);
                  setTermsAccepted(e.target.checked);
                }}
              />
            }
            label={
              <>
                I agree to the{' '}
                <Link href={TERMS_URL} target="_blank" rel="noopener noreferrer">
                  Terms and Conditions
                </Link>
              </>
            }
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={remember}
                onChange={(e) => {
                  setRemember(e.target.checked);
                  setRememberMe(e.target.checked);
                }}
              />
            }
            label="Remember Me"
          />
        </Box>
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!terms || busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
        >
          Sign in
        </Button>
        <Box sx={{ textAlign: 'center' }}>
          <ViewLink onClick={onForgotPassword}>Forgot Password</ViewLink>
        </Box>
      </Stack>
    </Box>
  );
}
