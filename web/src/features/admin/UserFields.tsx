import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { useController, type Control } from 'react-hook-form';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import type { UserFormValues } from './validation';

interface Props<T extends UserFormValues> {
  /** The react-hook-form control of a form holding UserFormValues (create: with userName besides). */
  control: Control<T, unknown, T>;
  /** Stack the name fields (a narrow side panel). */
  compact?: boolean;
  /** Show the rules' messages before the fields are touched (editing existing data). */
  showErrorsEarly?: boolean;
  /** The admin flag cannot be changed (one's own account: the server refuses it). */
  adminLocked?: boolean;
}

/** Names, e-mail and the admin flag of a user (create and edit). */
export function UserFields<T extends UserFormValues>(props: Props<T>) {
  // The fields are UserFormValues' in every form that uses them.
  const { compact, showErrorsEarly, adminLocked } = props;
  const control = props.control as unknown as Control<UserFormValues, unknown, UserFormValues>;
  const admin = useController({ name: 'admin', control });
  const text = (name: Exclude<keyof UserFormValues, 'admin'>, label: string, required = false) => (
    <ValidatedTextField
      name={name}
      control={control}
      label={label}
      required={required}
      showErrorsEarly={showErrorsEarly}
    />
  );
  return (
    <Stack spacing={1}>
      <Stack direction={compact ? 'column' : { xs: 'column', sm: 'row' }} spacing={compact ? 0 : 1}>
        {text('firstName', 'First name', true)}
        {text('middleName', 'Middle name')}
        {text('lastName', 'Last name', true)}
      </Stack>
      {text('email', 'E-mail', true)}
      <FormControlLabel
        control={
          <Checkbox
            checked={!!admin.field.value}
            disabled={adminLocked}
            onChange={(e) => admin.field.onChange(e.target.checked)}
            onBlur={admin.field.onBlur}
          />
        }
        label={adminLocked ? 'Administrator (you cannot change your own)' : 'Administrator'}
      />
    </Stack>
  );
}
