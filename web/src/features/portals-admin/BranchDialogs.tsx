import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { portalApi } from '../../api/portal';
import { showHttpError } from '../../core/toastService';
import { branchName, required } from '../../lib/validation';
import { PendingButton } from '../../ui/ConfirmDialog';
import { FormDialog } from '../../ui/FormDialog';
import { field } from '../../ui/schemas';
import { ActionFailure, useAction, type Action } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { toApiError } from '../../api/errors';
import { BRANCH_MESSAGES, branchExistsError, isMergeConflict, mergeTargetError, mergeValid } from './model';

interface CreateProps {
  open: boolean;
  domain: string;
  portal: string;
  branches: string[];
  defaultFrom: string;
  onClose: () => void;
  onCreated: () => void;
}

export function CreateBranchDialog({ open, domain, portal, branches, defaultFrom, onClose, onCreated }: CreateProps) {
  const create = useAction({
    action: ({ name, from }: { name: string; from: string }) =>
      portalApi.createBranch(domain, portal, name.trim(), from),
    success: (_, { name, from }) => `Branch ${name.trim()} created from ${from}.`,
    failure: 'Could not create the branch',
    onSuccess: onCreated,
  });
  const schema = z.object({
    name: field(
      (s) => required(s) ?? branchName(s.trim()),
      (s) => branchExistsError(branches, s),
    ),
    from: z.string().min(1),
  });
  return (
    <FormDialog
      open={open}
      title="Create Branch"
      schema={schema}
      defaultValues={{ name: '', from: defaultFrom }}
      submitLabel="Create"
      maxWidth="xs"
      onSubmit={create.submit}
      onClose={onClose}
    >
      {(form) => (
        <>
          <ValidatedTextField name="name" control={form.control} label="Branch name" required autoFocus />
          <TextField
            select
            label="From branch"
            size="small"
            value={form.watch('from')}
            onChange={(e) => form.setValue('from', e.target.value, { shouldValidate: true })}
          >
            {branches.map((b) => (
              <MenuItem key={b} value={b}>
                {b}
              </MenuItem>
            ))}
          </TextField>
        </>
      )}
    </FormDialog>
  );
}

interface MergeProps {
  open: boolean;
  domain: string;
  portal: string;
  branches: string[];
  onClose: () => void;
  onMerged: () => void;
}

type MergeAction = Action<{ source: string; target: string }, unknown>;

export function MergeDialog(props: MergeProps) {
  const { domain, portal, onMerged } = props;
  const merge = useAction({
    action: (v: { source: string; target: string }) => portalApi.mergeBranch(domain, portal, v.source, v.target),
    success: (_, v) => `Branch ${v.source} merged into ${v.target}.`,
    failure: 'Could not merge the branches',
    onSuccess: onMerged,
  });
  return (
    <Dialog open={props.open} onClose={() => !merge.pending && props.onClose()} fullWidth maxWidth="xs">
      {props.open && <MergeForm branches={props.branches} onClose={props.onClose} merge={merge} />}
    </Dialog>
  );
}

function MergeForm({ branches, onClose, merge }: { branches: string[]; onClose: () => void; merge: MergeAction }) {
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const valid = mergeValid(source, target);
  const busy = merge.pending;
  const targetError = mergeTargetError(source, target);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    setFailure(null);
    merge.submit({ source, target }).catch((e: unknown) => {
      if (!(e instanceof ActionFailure)) return;
      // A conflict is told in the dialog; anything else as a toast.
      if (isMergeConflict(e.error)) setFailure(toApiError(e.error).errorMessage);
      else showHttpError(e.error, e.title);
    });
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <DialogTitle>Merge Branches</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label="Source branch"
            size="small"
            value={source}
            onChange={(e) => setSource(e.target.value)}
          >
            {branches.map((b) => (
              <MenuItem key={b} value={b}>
                {b}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Target branch"
            size="small"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            error={targetError !== null}
            helperText={targetError ?? ' '}
          >
            {branches.map((b) => (
              <MenuItem key={b} value={b}>
                {b}
              </MenuItem>
            ))}
          </TextField>
          {failure && (
            <Alert severity="error" role="alert">
              <strong>{BRANCH_MESSAGES.mergeConflictTitle}</strong>: {failure}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <PendingButton type="submit" pending={busy} disabled={!valid}>
          Merge
        </PendingButton>
      </DialogActions>
    </form>
  );
}
