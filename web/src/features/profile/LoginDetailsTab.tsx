import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import type { User } from '../../api/types';
import { firstError, MESSAGES, passwordCharacters, passwordLength, required } from '../../lib/validation';
import { userApi } from '../../api/user';
import { ActionFailure, useAction } from '../../ui/useAction';
import { PROFILE_MESSAGES } from './profileApi';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
export type PasswordValues = Record<Field, string>;

const EMPTY: PasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The access-details rules of spec 1 §5.2 (the same checks the server makes). */
export function validatePasswords(values: PasswordValues): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  const current = firstError(values.currentPassword, required, passwordCharacters);
  if (current) errors.currentPassword = current;
  const next =
    values.newPassword === ''
      ? MESSAGES.fieldRequired
      : (firstError(values.newPassword, passwordLength, passwordCharacters) ??
        (values.currentPassword !== '' && values.newPassword === values.currentPassword
          ? MESSAGES.passwordUnchanged
          : null));
  if (next) errors.newPassword = next;
  const confirm =
    values.confirmPassword === ''
      ? MESSAGES.newPasswordUnconfirmed
      : (firstError(values.confirmPassword, passwordLength, passwordCharacters) ??
        (values.confirmPassword !== values.newPassword ? MESSAGES.passwordsDiffer : null));
  if (confirm) errors.confirmPassword = confirm;
  return errors;
}

/** Login Details: user name (read-only), current, new and confirm passwords (PUT user/password). */
export function LoginDetailsTab({ user }: { user: User }) {
  const [values, setValues] = useState<PasswordValues>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const change = useAction({
    action: (v: PasswordValues) => userApi.changePassword(v.currentPassword, v.newPassword),
    success: PROFILE_MESSAGES.passwordChanged,
    successTitle: null,
    failure: PROFILE_MESSAGES.passwordFailed,
    onSuccess: () => {
      setValues(EMPTY);
      setTouched({});
    },
  });
  const busy = change.pending;
  const errors = validatePasswords(values);
  const valid = Object.keys(errors).length === 0;

  const field = (name: Field, label: string, autoComplete: string) => {
    const shown = (touched[name] || values[name] !== '') && errors[name];
    return {
      name,
      label,
      type: 'password',
      autoComplete,
      value: values[name],
      onChange: (e: { target: { value: string } }) => {
        setFailure(null);
        setValues((v) => ({ ...v, [name]: e.target.value }));
      },
      onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
      error: !!shown,
      helperText: shown || ' ',
      required: true,
      fullWidth: true,
    };
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    setFailure(null);
    try {
      await change.submit(values);
    } catch (cause) {
      // Told in the form (e.g. 'The current password is incorrect.').
      if (cause instanceof ActionFailure) setFailure(toApiError(cause.error).errorMessage);
    }
  }

  return (
    <Stack component="form" noValidate onSubmit={save} aria-label="Login Details" spacing={1}>
      {/* Lets password managers pair the new password with the account. */}
      <TextField
        label="User name"
        name="username"
        value={user.userName}
        autoComplete="username"
        slotProps={{ htmlInput: { readOnly: true } }}
        helperText=" "
        fullWidth
      />
      <TextField {...field('currentPassword', 'Current password', 'current-password')} />
      <TextField {...field('newPassword', 'New password', 'new-password')} />
      <TextField {...field('confirmPassword', 'Confirm new password', 'new-password')} />
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={!valid || busy}>
          Save
        </Button>
      </Stack>
    </Stack>
  );
}
