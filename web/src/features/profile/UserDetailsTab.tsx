import { zodResolver } from '@hookform/resolvers/zod';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { User } from '../../api/types';
import { userApi } from '../../api/user';
import { applyProfileUpdate } from '../../core/session';
import { email as emailRule, personName } from '../../lib/validation';
import { PendingButton } from '../../ui/ConfirmDialog';
import { field, trimmed } from '../../ui/schemas';
import { useAction } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { PROFILE_MESSAGES, updateBody } from './profileApi';

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

const detailsSchema = (emailEditable: boolean) =>
  z.object({
    firstName: field((s) => personName(s, true)),
    middleName: field((s) => personName(s, false)),
    lastName: field((s) => personName(s, true)),
    email: emailEditable ? field(trimmed(emailRule)) : z.string(),
  });

/**
 * User Details (spec 1 §2.5, §5.2): first, middle and last name and e-mail (editable by
 * admins only). Save is enabled only when the form is changed and valid.
 */
export function UserDetailsTab({ user }: { user: User }) {
  const emailEditable = !!user.admin;
  const form = useForm<Values, unknown, Values>({
    resolver: zodResolver(detailsSchema(emailEditable)),
    defaultValues: valuesOf(user),
    mode: 'all',
  });

  const save = useAction({
    action: (values: Values) =>
      userApi.update(
        updateBody(user, {
          firstName: values.firstName.trim(),
          middleName: values.middleName.trim(),
          lastName: values.lastName.trim(),
          email: emailEditable ? values.email.trim() : user.email,
        }),
      ),
    success: PROFILE_MESSAGES.updated,
    successTitle: null,
    failure: PROFILE_MESSAGES.updateFailed,
    onSuccess: (updated, values) => {
      const next = updated && typeof updated === 'object' && 'id' in updated ? updated : { ...user, ...values };
      applyProfileUpdate(next);
      form.reset(valuesOf(next));
    },
  });

  const { isDirty, isValid } = form.formState;
  return (
    <Stack
      component="form"
      noValidate
      onSubmit={(e) => void form.handleSubmit((values) => save.run(values))(e)}
      aria-label="User Details"
      spacing={1}
    >
      <ValidatedTextField
        name="firstName"
        control={form.control}
        label="First name"
        size="medium"
        required
        autoComplete="given-name"
      />
      <ValidatedTextField
        name="middleName"
        control={form.control}
        label="Middle name"
        size="medium"
        autoComplete="additional-name"
      />
      <ValidatedTextField
        name="lastName"
        control={form.control}
        label="Last name"
        size="medium"
        required
        autoComplete="family-name"
      />
      <ValidatedTextField
        name="email"
        control={form.control}
        label="Email"
        size="medium"
        type="email"
        required
        autoComplete="email"
        disabled={!emailEditable}
        helperText={emailEditable ? undefined : 'Only an administrator can change the e-mail address.'}
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <PendingButton type="submit" pending={save.pending} disabled={!isDirty || !isValid}>
          Save
        </PendingButton>
      </Stack>
    </Stack>
  );
}
