import Card from '@mui/material/Card';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminApi, adminKeys, HISTORY_CATEGORIES, type HistoryCategory } from './api';
import { AdminOnly, AdminPage, LoadError, Loading } from './AdminPage';
import { formatDateTime } from './validation';

const CATEGORY_LABEL: Record<HistoryCategory, string> = {
  SIGN_IN: 'Sign-in',
  USER: 'User',
  DOMAIN: 'Domain',
  GROUP: 'Group',
  PREFERENCE: 'Preference',
};

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
    queryKey: adminKeys.historyTypes(category),
    queryFn: () => adminApi.historyTypes(category as HistoryCategory),
    enabled: category !== '',
    staleTime: Infinity,
  });
  const history = useQuery({
    queryKey: adminKeys.history(historyType),
    queryFn: () => adminApi.history(historyType),
    refetchOnWindowFocus: true,
  });

  const rows = (history.data ?? []).filter((row) => !category || historyType || row.category === category);

  return (
    <AdminPage
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
      {history.isPending && <Loading label="Loading the history" />}
      {history.isError && (
        <LoadError title="Could not load the history" error={history.error} onRetry={() => void history.refetch()} />
      )}
      {history.isSuccess && rows.length === 0 && <Typography color="text.secondary">No entries.</Typography>}
      {history.isSuccess && rows.length > 0 && (
        <TableContainer component={Card} variant="outlined">
          <Table size="small" aria-label="Audit history">
            <TableHead>
              <TableRow>
                <TableCell>Time</TableCell>
                <TableCell>Category</TableCell>
                <TableCell>Type</TableCell>
                <TableCell>User</TableCell>
                <TableCell>Entity</TableCell>
                <TableCell>Details</TableCell>
                <TableCell>Client address</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={String(row.id)}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.at)}</TableCell>
                  <TableCell>{CATEGORY_LABEL[row.category as HistoryCategory] ?? row.category}</TableCell>
                  <TableCell>{row.historyType}</TableCell>
                  <TableCell>{row.userName || (row.userId != null ? `#${row.userId}` : '')}</TableCell>
                  <TableCell>{[row.entity, row.entityId].filter(Boolean).join(' ')}</TableCell>
                  <TableCell sx={{ maxWidth: 320, wordBreak: 'break-word' }}>{row.details}</TableCell>
                  <TableCell>{row.clientAddr}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </AdminPage>
  );
}
