/**
 * The blame of a translation file or a content file (issue 33): each key or field with the last
 * commit that changed it, its author and time; sortable, filtered by author and date range,
 * exported as CSV for an auditor.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { Id } from '../../api/portal';
import { valueHistoryApi, valueHistoryKeys, type BlameRow } from '../../api/valueHistory';
import { formatDateTime } from '../../lib/format';
import { saveBlob } from '../../lib/saveBlob';
import { DataTable, type Column } from '../../ui/DataTable';
import { SelectField } from '../../ui/SelectField';
import { authorsOf, blameCsv, display, filterBlame, type BlameFilter } from './model';
import { VALUE_HISTORY_MESSAGES as MSG } from './messages';

export interface BlameDialogProps {
  open: boolean;
  onClose: () => void;
  d: Id;
  p: Id;
  /** A translation file by its language, or a file by its path. */
  of: { kind: 'translation'; lang: string } | { kind: 'file'; path: string };
  /** The file's name for people. */
  name: string;
}

export function BlameDialog({ open, onClose, name, ...rest }: BlameDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xl" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{MSG.blameOf(name)}</DialogTitle>
      <DialogContent dividers>{open && <BlameContent name={name} {...rest} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

const short = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const COLUMNS: ReadonlyArray<Column<BlameRow>> = [
  { id: 'key', header: MSG.key, cell: (r) => r.path, sortValue: (r) => r.path, rowHeader: true },
  { id: 'value', header: MSG.value, cell: (r) => short(display(r.value)), sortValue: (r) => display(r.value) },
  {
    id: 'commit',
    header: MSG.commit,
    cell: (r) => (r.uncommitted ? MSG.uncommitted : r.commit.slice(0, 8)),
    sortValue: (r) => (r.uncommitted ? '' : r.commit),
  },
  { id: 'author', header: MSG.author, cell: (r) => r.author, sortValue: (r) => r.author },
  { id: 'time', header: MSG.time, cell: (r) => (r.time ? formatDateTime(r.time) : '—'), sortValue: (r) => r.time },
  { id: 'message', header: MSG.message, cell: (r) => short(r.message, 60), sortValue: (r) => r.message },
];

function BlameContent({ d, p, of, name }: Omit<BlameDialogProps, 'open' | 'onClose'>) {
  const target = of.kind === 'translation' ? of.lang : of.path;
  const query = useQuery({
    queryKey: valueHistoryKeys.blame(d, p, of.kind, target),
    queryFn: () =>
      of.kind === 'translation'
        ? valueHistoryApi.translationBlame(d, p, of.lang)
        : valueHistoryApi.fileBlame(d, p, of.path),
    retry: false,
    staleTime: 0,
  });
  const [filter, setFilter] = useState<BlameFilter>({ author: '', from: '', to: '' });
  const rows = useMemo(() => (query.data ? filterBlame(query.data.rows, filter) : undefined), [query.data, filter]);
  const authors = useMemo(() => authorsOf(query.data?.rows ?? []), [query.data]);
  const exportCsv = () =>
    rows && saveBlob(new Blob([blameCsv(rows)], { type: 'text/csv' }), `blame-${name.replace(/[^\w.-]+/g, '_')}.csv`);

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <SelectField
          label={MSG.author}
          value={filter.author}
          onChange={(author) => setFilter((f) => ({ ...f, author }))}
          options={[{ value: '', label: MSG.anyAuthor }, ...authors.map((a) => ({ value: a, label: a }))]}
          sx={{ maxWidth: 240 }}
        />
        <TextField
          label={MSG.from}
          type="date"
          size="small"
          value={filter.from}
          onChange={(e) => setFilter((f) => ({ ...f, from: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label={MSG.to}
          type="date"
          size="small"
          value={filter.to}
          onChange={(e) => setFilter((f) => ({ ...f, to: e.target.value }))}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Button variant="outlined" onClick={exportCsv} disabled={!rows}>
          {MSG.exportCsv}
        </Button>
      </Stack>
      <DataTable
        label={MSG.blameOf(name)}
        columns={COLUMNS}
        rows={rows}
        rowKey={(r) => r.pointer}
        loading={query.isPending}
        loadingText={MSG.blameLoading}
        error={query.error}
        errorTitle={MSG.blameFailed}
        onRetry={() => void query.refetch()}
        emptyText={MSG.blameEmpty}
        initialSort={{ column: 'time', direction: 'desc' }}
        size="small"
      />
    </Stack>
  );
}
