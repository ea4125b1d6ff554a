import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useState } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

export type ValidatedTextFieldProps<TValues extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'defaultValue'
> & {
  name: FieldPath<TValues>;
  control: Control<TValues, unknown, TValues>;
  /** Show the rule's message before the field was touched (edit forms of existing data). */
  showErrorsEarly?: boolean;
};

/**
 * A text field bound to a react-hook-form field: shows the rule's message once the field was
 * touched or edited (or the form submitted), and keeps a blank helper line so the layout
 * does not jump.
 */
export function ValidatedTextField<TValues extends FieldValues>({
  name,
  control,
  showErrorsEarly,
  helperText,
  ...rest
}: ValidatedTextFieldProps<TValues>) {
  const { field, fieldState, formState } = useController({ name, control });
  // Edited once: a field typed in and cleared again says it is required at once.
  const [edited, setEdited] = useState(false);
  const shown =
    (showErrorsEarly || edited || fieldState.isTouched || formState.isSubmitted) && fieldState.error
      ? fieldState.error.message
      : undefined;
  return (
    <TextField
      size="small"
      fullWidth
      {...rest}
      name={field.name}
      inputRef={field.ref}
      value={(field.value as string | undefined) ?? ''}
      onChange={(event) => {
        setEdited(true);
        field.onChange(event);
      }}
      onBlur={field.onBlur}
      error={!!shown}
      helperText={shown ?? helperText ?? ' '}
    />
  );
}
