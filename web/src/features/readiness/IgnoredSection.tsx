/** The ignored findings with their reason, who and when, and Undo (asset:w). */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { IgnoredFinding } from '../../api/readiness';
import { formatDateTime } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { SeverityLabel } from './FindingsTable';
import { READINESS_MESSAGES as MSG } from './messages';
import { locationOf, ruleLabel } from './model';

export function IgnoredSection({
  ignored,
  onUndo,
  pendingId,
}: {
  ignored: readonly IgnoredFinding[];
  onUndo?: (finding: IgnoredFinding) => void;
  /** The finding whose Undo runs. */
  pendingId?: string;
}) {
  const columns: Column<IgnoredFinding>[] = [
    { id: 'severity', header: MSG.severity, width: 110, cell: (f) => <SeverityLabel severity={f.severity} /> },
    {
      id: 'message',
      header: MSG.message,
      rowHeader: true,
      cell: (f) => (
        <>
          {f.message}
          <Typography variant="caption" component="div" color="text.secondary">
            {ruleLabel(f.rule)}
          </Typography>
        </>
      ),
    },
    {
      id: 'where',
      header: MSG.where,
      cell: (f) => (
        <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', minWidth: 160 }}>
          {locationOf(f)}
        </Typography>
      ),
    },
    { id: 'reason', header: MSG.reason, cell: (f) => f.reason },
    { id: 'by', header: MSG.by, cell: (f) => f.by, sortValue: (f) => f.by },
    { id: 'at', header: MSG.at, cell: (f) => formatDateTime(f.at), sortValue: (f) => f.at },
    ...(onUndo
      ? [
          {
            id: 'actions',
            header: MSG.actions,
            cell: (f: IgnoredFinding) => (
              <Button size="small" disabled={pendingId === f.id} onClick={() => onUndo(f)}>
                {MSG.undo}
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <Stack spacing={1} component="section" aria-labelledby="readiness-ignored">
      <Typography id="readiness-ignored" variant="h6" component="h2">
        {MSG.ignored}
      </Typography>
      <DataTable
        label={MSG.ignored}
        columns={columns}
        rows={ignored}
        rowKey={(f) => f.id}
        size="small"
        emptyText={MSG.noIgnored}
      />
    </Stack>
  );
}
