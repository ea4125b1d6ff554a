import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { FieldErrors, UserFormValues } from './validation';

export type Touched<T> = Partial<Record<keyof T, boolean>>;

interface Props {
  values: UserFormValues;
  errors: FieldErrors<UserFormValues>;
  touched: Touched<UserFormValues>;
  onChange: (values: UserFormValues) => void;
  onBlur: (field: keyof UserFormValues) => void;
  disabled?: boolean;
  /** Stack the name fields (a narrow side panel). */
  compact?: boolean;
}

/** Names, e-mail and the admin flag of a user (create and edit). */
export function UserFields({ values, errors, touched, onChange, onBlur, disabled, compact }: Props) {
  const text = (name: Exclude<keyof UserFormValues, 'admin'>, label: string, required = false) => {
    const shown = touched[name] ? errors[name] : undefined;
    return (
      <TextField
        label={label}
        name={name}
        value={values[name]}
        required={required}
        disabled={disabled}
        onChange={(e) => onChange({ ...values, [name]: e.target.value })}
        onBlur={() => onBlur(name)}
        error={!!shown}
        helperText={shown ?? ' '}
        fullWidth
        size="small"
      />
    );
  };
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
            checked={values.admin}
            disabled={disabled}
            onChange={(e) => onChange({ ...values, admin: e.target.checked })}
          />
        }
        label="Administrator"
      />
    </Stack>
  );
}
