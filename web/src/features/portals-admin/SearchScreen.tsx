import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toApiError } from '../../api/errors';
import { paths } from '../../core/paths';
import { portalApi, portalKeys, type Portal } from '../../api/portal';
import { AdminOnly } from '../admin';
import { PageFrame } from '../../ui/PageFrame';
import { Loading } from '../../ui/Loading';
import { DataTable, type Column } from '../../ui/DataTable';

type Mode = 'pn' | 'uuid';

export const SEARCH_MESSAGES = {
  failed: 'Failed to search portals',
  none: 'No Items found',
  idFormat: 'Enter a portal id (a number).',
} as const;

/** The dashboard of a search result: its domain, its active branch (':' for '/'), en_GB. */
export const dashboardPath = (p: Portal) => paths.portalScreen(p.domainId, p.id, p.activeBranch || 'master');

const SEARCH_COLUMNS: Array<Column<Portal>> = [
  { id: 'name', header: 'Name', cell: (p) => p.name, sortValue: (p) => p.name, rowHeader: true },
  { id: 'id', header: 'Portal id', cell: (p) => p.id, sortValue: (p) => Number(p.id) },
  { id: 'domain', header: 'Domain id', cell: (p) => p.domainId, sortValue: (p) => Number(p.domainId) },
  {
    id: 'status',
    header: 'Status',
    cell: (p) => (p.status === 'active' && !p.deactivated ? 'Active' : 'Inactive'),
  },
];

/** Admin Search (spec 1 §7 search/portals): portals across domains by name part or id. */
export default function SearchScreen() {
  return (
    <AdminOnly>
      <SearchView />
    </AdminOnly>
  );
}

function SearchView() {
  const navigate = useNavigate();
  const [mode, setMode] = useState<Mode>('pn');
  const [text, setText] = useState('');
  const [query, setQuery] = useState<{ mode: Mode; text: string } | null>(null);
  const idError = mode === 'uuid' && text.trim() !== '' && !/^\d+$/.test(text.trim()) ? SEARCH_MESSAGES.idFormat : null;

  const results = useQuery({
    queryKey: portalKeys.search(query),
    queryFn: () =>
      query!.mode === 'pn' ? portalApi.search(query!.text, undefined) : portalApi.search(undefined, query!.text),
    enabled: query !== null,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim() === '' || idError) return;
    setQuery({ mode, text: text.trim() });
  }

  return (
    <PageFrame title="Admin Search" intro="Find a portal in any domain by a part of its name or by its id.">
      <form noValidate onSubmit={submit} role="search">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
          <TextField
            select
            label="Search by"
            size="small"
            value={mode}
            onChange={(e) => setMode(e.target.value as Mode)}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="pn">Portal name</MenuItem>
            <MenuItem value="uuid">Portal id</MenuItem>
          </TextField>
          <TextField
            label={mode === 'pn' ? 'Part of the portal name' : 'Portal id'}
            size="small"
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={!!idError}
            helperText={idError ?? ' '}
            sx={{ flex: 1, minWidth: 240 }}
          />
          <Button type="submit" variant="contained" disabled={text.trim() === '' || !!idError}>
            Search
          </Button>
        </Stack>
      </form>
      {results.isFetching && <Loading label="Searching" />}
      {results.isError && (
        <Alert severity="error">
          <strong>{SEARCH_MESSAGES.failed}</strong>: {toApiError(results.error).errorMessage}
        </Alert>
      )}
      {query !== null && results.isSuccess && !results.isFetching && (
        <DataTable
          label="Search results"
          columns={SEARCH_COLUMNS}
          rows={results.data}
          rowKey={(p) => `${String(p.domainId)}/${String(p.id)}`}
          emptyText={SEARCH_MESSAGES.none}
          onRowClick={(p) => void navigate(dashboardPath(p))}
          rowLabel={(p) => `Open ${p.name}`}
        />
      )}
    </PageFrame>
  );
}
