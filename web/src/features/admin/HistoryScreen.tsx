import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  HISTORY_CATEGORIES,
  historyApi,
  historyKeys,
  type HistoryCategory,
  type HistoryEntry,
} from '../../api/history';
import { AdminOnly } from './AdminPage';
import { PageFrame } from '../../ui/PageFrame';
import Box from '@mui/material/Box';
import { LoadError } from '../../ui/Loading';
import { DataTable, type Column } from '../../ui/DataTable';
import { codeLabel, formatDateTime } from '../../lib/format';

const CATEGORY_LABEL: Record<HistoryCategory, string> = {
  SIGN_IN: 'Sign-in',
  USER: 'User',
  DOMAIN: 'Domain',
  GROUP: 'Group',
  PREFERENCE: 'Preference',
  PORTAL: 'Portal',
};

const HISTORY_COLUMNS: Array<Column<HistoryEntry>> = [
  {
    id: 'at',
    header: 'Time',
    cell: (row) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.at)}</Box>,
    sortValue: (row) => row.at,
  },
  {
    id: 'category',
    header: 'Category',
    cell: (row) => CATEGORY_LABEL[row.category as HistoryCategory] ?? row.category,
    sortValue: (row) => row.category,
  },
  { id: 'type', header: 'Type', cell: (row) => codeLabel(row.historyType), sortValue: (row) => row.historyType },
  {
    id: 'user',
    header: 'User',
    cell: (row) => row.userName || (row.userId != null ? `#${String(row.userId)}` : ''),
    sortValue: (row) => row.userName ?? '',
  },
  { id: 'entity', header: 'Entity', cell: (row) => entityLabel(row) },
  {
    id: 'details',
    header: 'Details',
    cell: (row) => <Box sx={{ maxWidth: 320, wordBreak: 'break-word' }}>{row.details}</Box>,
  },
  { id: 'client', header: 'Client address', cell: (row) => row.clientAddr },
];

/** 'Portal #12': the kind in words and the id; nothing for entries about no one thing. */
function entityLabel({ entity, entityId }: HistoryEntry): string {
  if (!entity) return '';
  return entityId && entityId !== '0' ? `${codeLabel(entity)} #${entityId}` : codeLabel(entity);
}

/**
 * Audit History (spec 3 §7 "Lookup"): the system-wide history
 * (GET /lookup/accounts/0/0/entities/ALL/history), filtered by category and
 * history type. With a category and no type, the category filters the rows.
 */
export default function HistoryScreen() {
  return (
    <AdminOnly>
      <HistoryScreenContent />
    </AdminOnly>
  );
}

function HistoryScreenContent() {
  const [category, setCategory] = useState<HistoryCategory | ''>('');
  const [historyType, setHistoryType] = useState('');

  const types = useQuery({
    queryKey: historyKeys.types(category),
    queryFn: () => historyApi.types(category as HistoryCategory),
    enabled: category !== '',
    staleTime: Infinity,
  });
  const history = useQuery({
    queryKey: historyKeys.list(historyType),
    queryFn: () => historyApi.list(historyType),
    refetchOnWindowFocus: true,
  });

  const rows = (history.data ?? []).filter((row) => !category || historyType || row.category === category);

  return (
    <PageFrame
      title="Audit History"
      actions={
        <Stack direction="row" spacing={1}>
          <TextField
            select
            size="small"
            label="Category"
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            value={category}
            onChange={(e) => {
              setCategory(e.target.value as HistoryCategory | '');
              setHistoryType('');
            }}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="">All categories</MenuItem>
            {HISTORY_CATEGORIES.map((c) => (
              <MenuItem key={c} value={c}>
                {CATEGORY_LABEL[c]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="History type"
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            value={historyType}
            onChange={(e) => setHistoryType(e.target.value)}
            disabled={!category || !types.isSuccess}
            sx={{ minWidth: 240 }}
          >
            <MenuItem value="">All types</MenuItem>
            {(types.data ?? []).map((t) => (
              <MenuItem key={t.key} value={t.key}>
                {t.value}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      }
    >
      {types.isError && (
        <LoadError title="Could not load the history types" error={types.error} onRetry={() => void types.refetch()} />
      )}
      <DataTable
        label="Audit history"
        columns={HISTORY_COLUMNS}
        rows={history.data ? rows : undefined}
        rowKey={(row) => String(row.id)}
        loading={history.isPending}
        loadingText="Loading the history"
        error={history.error}
        errorTitle="Could not load the history"
        onRetry={() => void history.refetch()}
        emptyText="No entries."
      />
    </PageFrame>
  );
}
