import Alert from '@mui/material/Alert';
import type { ErrorListProps } from '@rjsf/utils';
import { EDITOR_MESSAGES } from './messages';

/** The form-level error warning (spec 2 §5); each field shows its own message. */
export function FormErrorList({ errors }: ErrorListProps) {
  if (errors.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {EDITOR_MESSAGES.formErrors}
    </Alert>
  );
}
