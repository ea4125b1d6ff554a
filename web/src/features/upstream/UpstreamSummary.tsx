import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { Id } from '../../api/portal';
import { upstreamApi, upstreamKeys, type UpstreamStatus } from '../../api/upstream';
import { formatDateTime } from '../../lib/format';
import { PendingButton } from '../../ui/ConfirmDialog';
import { useAction } from '../../ui/useAction';
import { STATE_LABELS, UPSTREAM_MESSAGES as MSG } from './messages';

/** The state as a chip ('In sync', 'Ahead', …). */
export function UpstreamStateChip({ state }: { state: UpstreamStatus['state'] }) {
  if (!state) return null;
  const s = STATE_LABELS[state];
  return <Chip size="small" label={s.label} color={s.color} data-state={state} />;
}

/** Sync now: fetch, bring the host's commits in, push what the host lacks. */
export function useSyncNow(d: Id, p: Id) {
  return useAction<void, UpstreamStatus>({
    action: () => upstreamApi.sync(d, p),
    success: MSG.synced,
    failure: MSG.syncFailed,
    // A failure changes the state too (its data carries it): refresh either way.
    invalidate: [upstreamKeys.status(d, p)],
  });
}

/**
 * URL, state, last sync, what went wrong, and Sync now: the part of the upstream the
 * dashboard card and the settings section share.
 */
export function UpstreamSummary({ d, p, status, canSync }: { d: Id; p: Id; status: UpstreamStatus; canSync: boolean }) {
  const sync = useSyncNow(d, p);
  const details = status.branches.flatMap((b) => [
    ...(b.deletedOnHost ? [MSG.branchDeletedOnHost(b.branch)] : []),
    ...(b.ahead > 0 ? [MSG.branchAhead(b.branch, b.ahead)] : []),
    ...(b.behind > 0 ? [MSG.branchBehind(b.branch, b.behind)] : []),
  ]);
  return (
    <Stack spacing={1}>
      <Table size="small" aria-label={MSG.cardTitle}>
        <TableBody>
          <TableRow>
            <TableCell component="th" scope="row" sx={{ width: 160, fontWeight: 600 }}>
              {MSG.url}
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-all' }}>{status.url}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
              {MSG.state}
            </TableCell>
            <TableCell>
              <UpstreamStateChip state={status.state} />
            </TableCell>
          </TableRow>
          <TableRow>
            <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
              {MSG.lastSync}
            </TableCell>
            <TableCell>{status.lastSyncAt ? formatDateTime(status.lastSyncAt) : MSG.never}</TableCell>
          </TableRow>
        </TableBody>
      </Table>
      {details.length > 0 && (
        <Stack component="ul" sx={{ m: 0, pl: 3 }} aria-label="Branches out of step">
          {details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </Stack>
      )}
      {status.error && (
        <Alert severity={status.state === 'IN_SYNC' ? 'info' : 'warning'} role="status">
          {status.error}
        </Alert>
      )}
      {canSync && (
        <div>
          <PendingButton pending={sync.pending} variant="outlined" onClick={() => sync.run()}>
            {MSG.syncNow}
          </PendingButton>
        </div>
      )}
    </Stack>
  );
}
