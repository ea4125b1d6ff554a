import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { toApiError } from '../../api/errors';
import { portalApi, portalKeys } from '../../api/portal';
import { useNavigate } from 'react-router';
import { PermissionView, Restricted } from '../../app/permissions/Restricted';
import { portalRoutePath } from '../../app/selection/portalChain';
import { showHttpError, toasts } from '../../app/toasts/toastService';
import { branchName, required } from '../../lib/validation';
import { PageFrame } from '../../ui/PageFrame';
import { PendingButton } from '../../ui/ConfirmDialog';
import { DataTable } from '../../ui/DataTable';
import { FormDialog } from '../../ui/FormDialog';
import { field } from '../../ui/schemas';
import { ActionFailure, useAction } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { usePortalParams } from './shared';

export const BRANCH_MESSAGES = {
  loadFailed: 'Failed to retrieve portal branches',
  mergeConflictTitle: 'The branches could not be merged',
  activeCannotBeDeleted: 'The active branch cannot be deleted.',
} as const;

/** Branches (spec 3 §2 portal module child 'branches'). */
export default function BranchesScreen() {
  const { domain, portal } = usePortalParams();
  return (
    <PermissionView permission="branch:r">
      <BranchesView key={`${domain}/${portal}`} />
    </PermissionView>
  );
}

function BranchesView() {
  const { domain, portal, branch: current, language } = usePortalParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const branches = useQuery({
    queryKey: portalKeys.branches(domain, portal),
    queryFn: () => portalApi.branches(domain, portal),
  });
  const active = useQuery({
    queryKey: portalKeys.activeBranch(domain, portal),
    queryFn: () => portalApi.activeBranch(domain, portal),
  });
  const [creating, setCreating] = useState(false);
  const [merging, setMerging] = useState(false);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: portalKeys.branches(domain, portal) }),
      // The branch picker (features/portal) lists the references under its own key.
      queryClient.invalidateQueries({ queryKey: portalKeys.workspace(domain, portal) }),
    ]);

  const remove = useAction({
    action: (name: string) => portalApi.deleteBranch(domain, portal, name),
    success: (_, name) => `Branch ${name} deleted.`,
    // A branch that a workspace has checked out with unpushed work is refused (409
    // BRANCH_CHECKED_OUT): the toast carries the server's reason.
    failure: 'Could not delete the branch',
    onSuccess: async (_, name) => {
      await refresh();
      // The workspace was on the branch just deleted: move to the active branch (the selection
      // chain opens it) rather than stay on a branch that no longer exists.
      if (name === current && activeName)
        void navigate(portalRoutePath(domain, portal, activeName, language, 'branches'));
    },
  });

  async function confirmDelete(name: string) {
    const question = `Delete the branch ${name}? Commits only on this branch are lost.`;
    if (await toasts.prompt(question, { title: 'Delete Branch' })) remove.run(name);
  }

  const list = branches.data ?? [];
  const activeName = active.data?.trim() ?? '';

  return (
    <PageFrame
      title="Branches"
      actions={
        <Stack direction="row" spacing={1}>
          <Restricted permission="branch_write">
            <Button variant="outlined" onClick={() => setMerging(true)} disabled={list.length < 2}>
              Merge Branches
            </Button>
          </Restricted>
          <Restricted permission="branch_create">
            <Button variant="contained" onClick={() => setCreating(true)} disabled={!branches.isSuccess}>
              Create Branch
            </Button>
          </Restricted>
        </Stack>
      }
    >
      <DataTable
        label="Branches"
        columns={[
          {
            id: 'branch',
            header: 'Branch',
            rowHeader: true,
            sortValue: (name) => name,
            cell: (name) => (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <span>{name}</span>
                {name === activeName && <Chip size="small" color="primary" label="Active" />}
                {name === current && <Chip size="small" variant="outlined" label="Current" />}
              </Stack>
            ),
          },
          {
            id: 'actions',
            header: 'Actions',
            align: 'right',
            cell: (name) => (
              <Restricted permission="branch_delete">
                <Tooltip title={name === activeName ? BRANCH_MESSAGES.activeCannotBeDeleted : ''}>
                  <span>
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Delete branch ${name}`}
                      disabled={name === activeName || !active.isSuccess || remove.pending}
                      onClick={() => void confirmDelete(name)}
                    >
                      Delete
                    </Button>
                  </span>
                </Tooltip>
              </Restricted>
            ),
          },
        ]}
        rows={branches.data}
        rowKey={(name) => name}
        loading={branches.isPending}
        loadingText="Loading branches"
        error={branches.error}
        errorTitle={BRANCH_MESSAGES.loadFailed}
        onRetry={() => void branches.refetch()}
        emptyText="No branches."
      />
      <CreateBranchDialog
        open={creating}
        domain={domain}
        portal={portal}
        branches={list}
        defaultFrom={list.includes(current) ? current : activeName || list[0] || ''}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          void refresh();
        }}
      />
      <MergeDialog
        open={merging}
        domain={domain}
        portal={portal}
        branches={list}
        onClose={() => setMerging(false)}
        onMerged={() => {
          setMerging(false);
          void refresh();
        }}
      />
    </PageFrame>
  );
}

interface CreateProps {
  open: boolean;
  domain: string;
  portal: string;
  branches: string[];
  defaultFrom: string;
  onClose: () => void;
  onCreated: () => void;
}

function CreateBranchDialog({ open, domain, portal, branches, defaultFrom, onClose, onCreated }: CreateProps) {
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
      (s) => (branches.includes(s.trim()) ? `The branch ${s.trim()} already exists.` : null),
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

function MergeDialog(props: MergeProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={props.open} onClose={() => !busy && props.onClose()} fullWidth maxWidth="xs">
      {props.open && <MergeForm {...props} onBusy={setBusy} />}
    </Dialog>
  );
}

function MergeForm({
  domain,
  portal,
  branches,
  onClose,
  onMerged,
  onBusy,
}: MergeProps & { onBusy: (busy: boolean) => void }) {
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const valid = source !== '' && target !== '' && source !== target;
  const merge = useAction({
    action: (v: { source: string; target: string }) => portalApi.mergeBranch(domain, portal, v.source, v.target),
    success: (_, v) => `Branch ${v.source} merged into ${v.target}.`,
    failure: 'Could not merge the branches',
    onSuccess: onMerged,
  });
  const busy = merge.pending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid) return;
    setFailure(null);
    onBusy(true);
    merge
      .submit({ source, target })
      .catch((e: unknown) => {
        if (!(e instanceof ActionFailure)) return;
        // A conflict is told in the dialog; anything else as a toast.
        const error = toApiError(e.error);
        if (error.hasCode('PORTAL_MERGE_ERROR') || error.httpStatus === 409) setFailure(error.errorMessage);
        else showHttpError(e.error, e.title);
      })
      .finally(() => onBusy(false));
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
            error={source !== '' && source === target}
            helperText={source !== '' && source === target ? 'Choose two different branches.' : ' '}
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
