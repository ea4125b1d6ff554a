import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import {
  hasPackage,
  isApprovable,
  isGeneratable,
  isRejectable,
  MAKELOAD_ERROR_CODE,
  type Loadable,
} from '../../api/loadables';
import { usePermission } from '../../core/usePermission';
import type { LoadableActionsHandle } from './useLoadableActions';

export type LoadableDialog = { kind: 'reject' | 'output' | 'preview' | 'handOver' | 'override'; loadable: Loadable };

/** What a row offers, by its status and the user's permissions. */
export function LoadableActions({
  loadable: l,
  actions,
  onDialog,
  expanded,
  onToggleDeliveries,
}: {
  loadable: Loadable;
  actions: LoadableActionsHandle;
  onDialog: (dialog: LoadableDialog) => void;
  expanded: boolean;
  onToggleDeliveries: () => void;
}) {
  const canCreate = usePermission('loadable:c');
  const canApprove = usePermission('loadable:a');
  const open = (kind: LoadableDialog['kind']) => () => onDialog({ kind, loadable: l });
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {isGeneratable(l.status) && canCreate && (
        <Button size="small" disabled={actions.generate.pending} onClick={() => actions.generate.run(l)}>
          {l.status === 'FAILED' ? 'Generate again' : 'Generate'}
        </Button>
      )}
      {l.status === 'FAILED' && l.error?.errorCode === MAKELOAD_ERROR_CODE && (
        <Button size="small" onClick={open('output')}>
          Build output
        </Button>
      )}
      {isApprovable(l.status) && canApprove && (
        <Button size="small" color="success" disabled={actions.approve.pending} onClick={() => actions.approve.run(l)}>
          Approve
        </Button>
      )}
      {isRejectable(l.status) && canApprove && (
        <Button size="small" color="error" onClick={open('reject')}>
          Reject
        </Button>
      )}
      {hasPackage(l.status) && (
        <>
          <Button size="small" disabled={actions.download.pending} onClick={() => actions.download.run(l)}>
            Download
          </Button>
          <Button size="small" onClick={open('preview')}>
            Preview
          </Button>
        </>
      )}
      {l.status === 'APPROVED' && canApprove && (
        <Button size="small" onClick={open('handOver')}>
          Hand over
        </Button>
      )}
      {l.status === 'APPROVED' && (
        <Button size="small" aria-expanded={expanded} onClick={onToggleDeliveries}>
          Hand-overs
        </Button>
      )}
    </Stack>
  );
}
