import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import { portalApi } from '../../api/portal';
import { useNavigate } from 'react-router';
import { PermissionView, Restricted } from '../../app/permissions/Restricted';
import { portalRoutePath } from '../../app/selection/portalChain';
import { showHttpError, toasts } from '../../app/toasts/toastService';
import { branchName, firstError, required } from '../../lib/validation';
import { AdminPage, LoadError, Loading } from '../admin/AdminPage';
import { keys, usePortalParams, workspaceKeys } from './shared';

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
    queryKey: keys.branches(domain, portal),
    queryFn: () => portalApi.branches(domain, portal),
  });
  const active = useQuery({
    queryKey: keys.activeBranch(domain, portal),
    queryFn: () => portalApi.activeBranch(domain, portal),
  });
  const [creating, setCreating] = useState(false);
  const [merging, setMerging] = useState(false);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.branches(domain, portal) }),
      // The branch picker (features/portal) lists the references under its own key.
      queryClient.invalidateQueries({ queryKey: workspaceKeys.portal(domain, portal) }),
    ]);

  const remove = useMutation({
    mutationFn: (name: string) => portalApi.deleteBranch(domain, portal, name),
    onSuccess: async (_, name) => {
      toasts.success(`Branch ${name} deleted.`, 'SUCCESS');
      await refresh();
      // The workspace was on the branch just deleted: move to the active branch (the selection
      // chain opens it) rather than stay on a branch that no longer exists.
      if (name === current && activeName)
        void navigate(portalRoutePath(domain, portal, activeName, language, 'branches'));
    },
    // A branch that a workspace has checked out with unpushed work is refused (409
    // BRANCH_CHECKED_OUT): the toast carries the server's reason.
    onError: (error) => showHttpError(error, 'Could not delete the branch'),
  });

  async function confirmDelete(name: string) {
    const question = `Delete the branch ${name}? Commits only on this branch are lost.`;
    if (await toasts.prompt(question, { title: 'Delete Branch' })) remove.mutate(name);
  }

  const list = branches.data ?? [];
  const activeName = active.data?.trim() ?? '';

  return (
    <AdminPage
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
      {branches.isPending && <Loading label="Loading branches" />}
      {branches.isError && (
        <LoadError title={BRANCH_MESSAGES.loadFailed} error={branches.error} onRetry={() => void branches.refetch()} />
      )}
      {branches.isSuccess && (
        <Card variant="outlined">
          <TableContainer>
            <Table size="small" aria-label="Branches">
              <TableHead>
                <TableRow>
                  <TableCell>Branch</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((name) => {
                  const isActive = name === activeName;
                  return (
                    <TableRow key={name} hover>
                      <TableCell component="th" scope="row">
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          <span>{name}</span>
                          {isActive && <Chip size="small" color="primary" label="Active" />}
                          {name === current && <Chip size="small" variant="outlined" label="Current" />}
                        </Stack>
                      </TableCell>
                      <TableCell align="right">
                        <Restricted permission="branch_delete">
                          <Tooltip title={isActive ? BRANCH_MESSAGES.activeCannotBeDeleted : ''}>
                            <span>
                              <Button
                                size="small"
                                color="error"
                                aria-label={`Delete branch ${name}`}
                                disabled={isActive || !active.isSuccess || remove.isPending}
                                onClick={() => void confirmDelete(name)}
                              >
                                Delete
                              </Button>
                            </span>
                          </Tooltip>
                        </Restricted>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        </Card>
      )}
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
    </AdminPage>
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

function CreateBranchDialog(props: CreateProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={props.open} onClose={() => !busy && props.onClose()} fullWidth maxWidth="xs">
      {props.open && <CreateBranchForm {...props} busy={busy} setBusy={setBusy} />}
    </Dialog>
  );
}

function CreateBranchForm({
  domain,
  portal,
  branches,
  defaultFrom,
  onClose,
  onCreated,
  busy,
  setBusy,
}: CreateProps & { busy: boolean; setBusy: (b: boolean) => void }) {
  const [name, setName] = useState('');
  const [from, setFrom] = useState(defaultFrom);
  const [touched, setTouched] = useState(false);
  const exists = branches.includes(name.trim());
  const error =
    firstError(name.trim(), required, branchName) ?? (exists ? `The branch ${name.trim()} already exists.` : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (error || !from || busy) return;
    setBusy(true);
    try {
      await portalApi.createBranch(domain, portal, name.trim(), from);
      toasts.success(`Branch ${name.trim()} created from ${from}.`, 'SUCCESS');
      onCreated();
    } catch (e) {
      showHttpError(e, 'Could not create the branch');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <DialogTitle>Create Branch</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Branch name"
            required
            autoFocus
            size="small"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            error={touched && !!error}
            helperText={(touched && error) || ' '}
          />
          <TextField select label="From branch" size="small" value={from} onChange={(e) => setFrom(e.target.value)}>
            {branches.map((b) => (
              <MenuItem key={b} value={b}>
                {b}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={!!error || !from || busy}>
          Create
        </Button>
      </DialogActions>
    </form>
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
      {props.open && <MergeForm {...props} busy={busy} setBusy={setBusy} />}
    </Dialog>
  );
}

function MergeForm({
  domain,
  portal,
  branches,
  onClose,
  onMerged,
  busy,
  setBusy,
}: MergeProps & { busy: boolean; setBusy: (b: boolean) => void }) {
  const [source, setSource] = useState('');
  const [target, setTarget] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const valid = source !== '' && target !== '' && source !== target;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await portalApi.mergeBranch(domain, portal, source, target);
      toasts.success(`Branch ${source} merged into ${target}.`, 'SUCCESS');
      onMerged();
    } catch (e) {
      const error = toApiError(e);
      if (error.hasCode('PORTAL_MERGE_ERROR') || error.httpStatus === 409) setFailure(error.errorMessage);
      else showHttpError(e, 'Could not merge the branches');
    } finally {
      setBusy(false);
    }
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
        <Button type="submit" variant="contained" disabled={!valid || busy}>
          Merge
        </Button>
      </DialogActions>
    </form>
  );
}
