/**
 * Approve despite readiness errors (issue 29): the gate refused the approval (409
 * READINESS_ERRORS); the commit's readiness is shown and a reason (required, ≤ 1000 characters)
 * approves it over the errors (POST approve/{id} with {overrideReason}).
 */
import Typography from '@mui/material/Typography';
import { MAX_OVERRIDE_REASON, type Loadable } from '../../api/loadables';
import { FormDialog } from '../../ui/FormDialog';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { ReadinessPanel } from '../readiness';
import { LOADABLE_MESSAGES as MSG } from './messages';
import { overrideSchema, type OverrideValues } from './validation';

export function ApproveOverrideDialog({
  loadable,
  branch,
  language,
  onApprove,
  onClose,
}: {
  loadable: Loadable;
  branch: string;
  language: string;
  onApprove: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  return (
    <FormDialog<OverrideValues>
      open
      title={MSG.overrideTitle}
      schema={overrideSchema}
      defaultValues={{ reason: '' }}
      submitLabel={MSG.overrideSubmit}
      danger
      onSubmit={({ reason }) => onApprove(reason)}
      onClose={onClose}
    >
      {(form) => (
        <>
          <Typography>
            <strong>
              {loadable.name} {loadable.version}
            </strong>
          </Typography>
          <Typography color="text.secondary">{MSG.overrideText}</Typography>
          <ReadinessPanel
            domain={String(loadable.domainId)}
            portal={String(loadable.portalId)}
            branch={branch}
            language={language}
            commitId={loadable.commitId}
          />
          <ValidatedTextField<OverrideValues>
            control={form.control}
            name="reason"
            label={MSG.reason}
            required
            multiline
            minRows={2}
            autoFocus
            slotProps={{ htmlInput: { maxLength: MAX_OVERRIDE_REASON + 100 } }}
            sx={{ pt: 1 }}
          />
        </>
      )}
    </FormDialog>
  );
}
