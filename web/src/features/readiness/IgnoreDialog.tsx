import Typography from '@mui/material/Typography';
import type { Finding } from '../../api/readiness';
import { FormDialog } from '../../ui/FormDialog';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { MAX_IGNORE_REASON, READINESS_MESSAGES as MSG } from './messages';
import { locationOf } from './model';
import { ignoreSchema, type IgnoreValues } from './schemas';

/** Ignore a finding: a reason is required (≤ 500 characters); kept in readiness.json with the user's name. */
export function IgnoreDialog({
  finding,
  onIgnore,
  onClose,
}: {
  finding: Finding | null;
  onIgnore: (finding: Finding, reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  return (
    <FormDialog<IgnoreValues>
      open={!!finding}
      title={MSG.ignoreTitle}
      schema={ignoreSchema}
      defaultValues={{ reason: '' }}
      submitLabel={MSG.ignore}
      onSubmit={({ reason }) => onIgnore(finding!, reason)}
      onClose={onClose}
    >
      {(form) => (
        <>
          {finding && (
            <Typography>
              <strong>{finding.message}</strong>
              <Typography component="span" color="text.secondary" sx={{ display: 'block', fontFamily: 'monospace' }}>
                {locationOf(finding)}
              </Typography>
            </Typography>
          )}
          <Typography color="text.secondary">{MSG.ignoreText}</Typography>
          <ValidatedTextField<IgnoreValues>
            control={form.control}
            name="reason"
            label={MSG.reason}
            required
            multiline
            minRows={2}
            autoFocus
            slotProps={{ htmlInput: { maxLength: MAX_IGNORE_REASON + 100 } }}
          />
        </>
      )}
    </FormDialog>
  );
}
