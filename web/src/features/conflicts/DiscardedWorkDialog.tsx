import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { conflictKeys, conflictsApi, type DiscardedWork, type RestoreResult } from '../../api/conflicts';
import type { Id } from '../../api/portal';
import { workspaceChanged } from '../../core/workspaceRefresh';
import { selectLimits, useSessionStore } from '../../core/sessionStore';
import { toasts } from '../../core/toastService';
import { formatDateTime } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { PendingButton } from '../../ui/ConfirmDialog';
import { useAction } from '../../ui/useAction';
import { CONFLICT_MESSAGES as MSG } from './messages';

export interface DiscardedWorkDialogProps {
  open: boolean;
  onClose: () => void;
  d: Id;
  p: Id;
  /** The branch the caller's workspace is on. */
  branch: string;
}

function Files({ entry }: { entry: DiscardedWork }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const files = Object.entries(entry.files).sort(([a], [b]) => a.localeCompare(b));
  return (
    <>
      <Button size="small" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
        {MSG.filesToggle(files.length)}
      </Button>
      {open && (
        <Box
          component="ul"
          id={listId}
          aria-label={MSG.filesOf(formatDateTime(entry.time))}
          sx={{ m: 0, p: 0, listStyle: 'none' }}
        >
          {files.map(([path, change]) => (
            <Box component="li" key={path} sx={{ display: 'flex', gap: 1, alignItems: 'center', py: 0.25 }}>
              <Chip size="small" variant="outlined" label={change} />
              <Typography component="span" sx={{ fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }}>
                {path}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </>
  );
}

/**
 * Recover discarded work: the local commits and uncommitted changes a Reset or a branch override
 * put aside (newest first, kept for the server's days), each with Restore, which brings it back
 * as uncommitted changes; then every workspace view refreshes. One request per click.
 */
export function DiscardedWorkDialog({ open, onClose, d, p, branch }: DiscardedWorkDialogProps) {
  const titleId = useId();
  const client = useQueryClient();
  const keptDays = useSessionStore(selectLimits)?.discardedWorkDays;
  const list = useQuery({
    queryKey: conflictKeys.discarded(d, p),
    queryFn: () => conflictsApi.discarded(d, p),
    enabled: open,
    retry: false,
  });
  const restore = useAction<DiscardedWork, RestoreResult>({
    action: (entry) => conflictsApi.restore(d, p, entry.id),
    success: MSG.restored,
    failure: MSG.restoreFailed,
    onSuccess: async (result) => {
      const overlapping = result?.overlapping ?? [];
      if (overlapping.length > 0)
        toasts.warning(MSG.overlapping(overlapping), MSG.overlappingTitle, { timeOut: 10_000, closeButton: true });
      await workspaceChanged(
        client,
        { domainId: d, portalId: p, branch: result?.status?.branch || branch },
        { reopen: true },
      );
    },
  });

  const columns: Column<DiscardedWork>[] = [
    { id: 'time', header: 'Time', cell: (w) => formatDateTime(w.time), rowHeader: true },
    { id: 'branch', header: 'Branch', cell: (w) => w.branch },
    {
      id: 'message',
      header: 'Message',
      cell: (w) => (
        <>
          <Typography variant="body2">{w.message}</Typography>
          <Typography variant="caption" color="text.secondary">
            {MSG.commitsCount(w.commits)}
          </Typography>
        </>
      ),
    },
    { id: 'files', header: 'Files', cell: (w) => <Files entry={w} /> },
    {
      id: 'action',
      header: 'Action',
      cell: (w) => (
        <PendingButton variant="outlined" pending={restore.pending} onClick={() => restore.run(w)}>
          {MSG.restore}
        </PendingButton>
      ),
    },
  ];

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{MSG.recover}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{MSG.recoverIntro(keptDays)}</DialogContentText>
        <DataTable
          label={MSG.discardedTable}
          columns={columns}
          rows={list.data}
          rowKey={(w) => w.id}
          loading={list.isPending}
          error={list.isError ? list.error : undefined}
          errorTitle={MSG.discardedFailed}
          onRetry={() => void list.refetch()}
          emptyText={MSG.discardedEmpty}
          size="small"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
