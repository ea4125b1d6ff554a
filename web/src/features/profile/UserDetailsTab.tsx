import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import type { User } from '../../api/types';
import { applyProfileUpdate } from '../../app/session/session';
import { toasts } from '../../app/toasts/toastService';
import { toApiError } from '../../api/errors';
import { email as emailRule, personName } from '../../lib/validation';
import { PROFILE_MESSAGES, profileApi, updateBody } from './profileApi';

type Field = 'firstName' | 'middleName' | 'lastName' | 'email';
type Values = Record<Field, string>;

const valuesOf = (user: User): Values => ({
  firstName: user.firstName ?? '',
  middleName: user.middleName ?? '',
  lastName: user.lastName ?? '',
  email: user.email ?? '',
});

export function validateDetails(values: Values, emailEditable: boolean): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  const check = (field: Field, message: string | null) => {
    if (message) errors[field] = message;
  };
  check('firstName', personName(values.firstName, true));
  check('middleName', personName(values.middleName, false));
  check('lastName', personName(values.lastName, true));
  if (emailEditable) check('email', emailRule(values.email.trim()));
  return errors;
}

/**
 * User Details (spec 1 §2.5, §5.2): first, middle and last name and e-mail (editable by
 * admins only). Save is enabled only when the form is changed and valid.
 */
export function UserDetailsTab({ user }: { user: User }) {
  const [values, setValues] = useState<Values>(() => valuesOf(user));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [busy, setBusy] = useState(false);
  const baseline = valuesOf(user);
  const emailEditable = !!user.admin;
  const errors = validateDetails(values, emailEditable);
  const changed = (Object.keys(values) as Field[]).some((f) => values[f] !== baseline[f]);
  const valid = Object.keys(errors).length === 0;

  const field = (name: Field, label: string) => {
    const shown = (touched[name] || values[name] !== baseline[name]) && errors[name];
    return {
      name,
      label,
      value: values[name],
      onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
      onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
      error: !!shown,
      helperText: shown || ' ',
      fullWidth: true,
    };
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!changed || !valid || busy) return;
    setBusy(true);
    try {
      const updated = await profileApi.update(
        updateBody(user, {
          firstName: values.firstName.trim(),
          middleName: values.middleName.trim(),
          lastName: values.lastName.trim(),
          email: emailEditable ? values.email.trim() : user.email,
        }),
      );
      const next = updated && typeof updated === 'object' && 'id' in updated ? updated : { ...user, ...values };
      applyProfileUpdate(next);
      setValues(valuesOf(next));
      setTouched({});
      toasts.success(PROFILE_MESSAGES.updated);
    } catch (cause) {
      toasts.danger(toApiError(cause).errorMessage, PROFILE_MESSAGES.updateFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack component="form" noValidate onSubmit={save} aria-label="User Details" spacing={1}>
      <TextField {...field('firstName', 'First name')} required autoComplete="given-name" />
      <TextField {...field('middleName', 'Middle name')} autoComplete="additional-name" />
      <TextField {...field('lastName', 'Last name')} required autoComplete="family-name" />
      <TextField
        {...field('email', 'Email')}
        type="email"
        required
        autoComplete="email"
        disabled={!emailEditable}
        helperText={
          emailEditable ? field('email', 'Email').helperText : 'Only an administrator can change the e-mail address.'
        }
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={!changed || !valid || busy}>
          Save
        </Button>
      </Stack>
    </Stack>
  );
}
