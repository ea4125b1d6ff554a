import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { LOADABLE_MESSAGES as MSG } from './messages';
import { detailsErrors, type DetailsValues } from './validation';

/**
 * Step 2: name (suggested by generateName), part number (Suggest: unity/partNumber with the
 * portal name as folder) and the version prefix major.minor, checked with the server's rules.
 */
export function DetailsStep({
  values,
  onChange,
  showErrors,
  onSuggestPart,
  suggesting,
}: {
  values: DetailsValues;
  onChange: (values: DetailsValues) => void;
  /** Show every field's error (after Next), not only those of fields left. */
  showErrors: boolean;
  onSuggestPart: () => void;
  suggesting: boolean;
}) {
  const errors = showErrors ? detailsErrors(values) : {};
  const field = (key: keyof DetailsValues, label: string, extra: { upper?: boolean } = {}) => (
    <TextField
      size="small"
      fullWidth
      required
      label={label}
      value={values[key]}
      onChange={(e) => onChange({ ...values, [key]: extra.upper ? e.target.value.toUpperCase() : e.target.value })}
      error={!!errors[key]}
      helperText={errors[key] ?? ' '}
    />
  );
  return (
    <Stack spacing={1} sx={{ maxWidth: 560 }}>
      {field('name', 'Name')}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        {field('partNumber', 'Part number', { upper: true })}
        <Button variant="outlined" onClick={onSuggestPart} disabled={suggesting} sx={{ mt: 0.25 }}>
          {MSG.suggest}
        </Button>
      </Stack>
      {field('versionPrefix', 'Version (major.minor)')}
    </Stack>
  );
}
