import MenuItem from '@mui/material/MenuItem';
import TextField, { type TextFieldProps } from '@mui/material/TextField';

export interface SelectOption {
  value: string;
  label: string;
}

export type SelectFieldProps = Omit<TextFieldProps, 'select' | 'value' | 'onChange' | 'children'> & {
  value: string;
  onChange: (value: string) => void;
  /** The choices: what is stored and what is shown. */
  options: readonly SelectOption[];
};

/**
 * A labelled select of named options: stores `value`, shows `label` (never the raw code). A
 * value that is not among the options shows as itself, so data the screen does not know is
 * not hidden or silently changed.
 */
export function SelectField({ value, onChange, options, ...rest }: SelectFieldProps) {
  const known = value === '' || options.some((o) => o.value === value);
  return (
    <TextField select size="small" fullWidth {...rest} value={value} onChange={(e) => onChange(e.target.value)}>
      {!known && <MenuItem value={value}>{value}</MenuItem>}
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Options from a label table ({CREW: 'Crew'}) or from lookup entries ({key, value}). */
export const optionsOf = (
  labels: Record<string, string> | ReadonlyArray<{ key: string; value: string }>,
): SelectOption[] =>
  Array.isArray(labels)
    ? labels.map((e: { key: string; value: string }) => ({ value: e.key, label: e.value }))
    : Object.entries(labels).map(([value, label]) => ({ value, label }));
