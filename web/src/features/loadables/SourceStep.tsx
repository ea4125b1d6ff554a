import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useLookup } from '../../api/lookup';
import { portalKeys } from '../../api/portal';
import type { GitValidation } from '../../api/loadables';
import { loadReferences } from '../../core/portalChain';
import { PendingButton } from '../../ui/ConfirmDialog';
import { optionsOf, SelectField } from '../../ui/SelectField';
import { LOADABLE_MESSAGES as MSG } from './messages';

export interface SourceValues {
  type: string;
  gitRef: string;
}

/**
 * Step 1: the payload type (lookup PayloadType) and the branch, tag or commit to build from
 * (the portal's branches and tags, or a commit id typed in); Validate checks the reference
 * (gitvalidation) and shows its message and the warnings about work that is not part of it.
 */
export function SourceStep({
  domain,
  portal,
  values,
  onChange,
  validation,
  validating,
  onValidate,
  error,
}: {
  domain: string;
  portal: string;
  values: SourceValues;
  onChange: (values: SourceValues) => void;
  validation: GitValidation | null;
  validating: boolean;
  onValidate: () => void;
  error: string | null;
}) {
  const types = useLookup('PayloadType');
  const refs = useQuery({
    queryKey: portalKeys.references(domain, portal),
    queryFn: () => loadReferences(domain, portal),
    retry: false,
  });
  const options = [...(refs.data?.allReferences ?? []), ...(refs.data?.allTags ?? [])];
  const warnings = validation?.ruleWarnings ?? [];
  return (
    <Stack spacing={2} sx={{ maxWidth: 560 }}>
      <SelectField
        label="Payload type"
        required
        value={values.type}
        onChange={(type) => onChange({ ...values, type })}
        options={optionsOf(types)}
      />
      <Autocomplete
        freeSolo
        options={options}
        value={values.gitRef}
        onInputChange={(_, gitRef) => onChange({ ...values, gitRef })}
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            required
            label="Branch, tag or commit"
            error={!!error}
            helperText={error ?? ' '}
          />
        )}
      />
      <Stack direction="row">
        <PendingButton pending={validating} variant="outlined" onClick={onValidate}>
          {validating ? MSG.validating : MSG.validate}
        </PendingButton>
      </Stack>
      {validation && (
        <Alert severity={validation.valid ? (warnings.length ? 'warning' : 'success') : 'error'} role="status">
          <AlertTitle>{validation.message || (validation.valid ? MSG.valid : MSG.gitRef)}</AlertTitle>
          {validation.valid && validation.commitId && `Commit ${validation.commitId.slice(0, 10)}`}
          {warnings.length > 0 && (
            <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
              {warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}
    </Stack>
  );
}
