import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
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
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toApiError } from '../../api/errors';
import { branchToUrl, portalApi, type Portal } from '../../api/portal';
import { AdminOnly, AdminPage, Loading } from '../admin/AdminPage';

type Mode = 'pn' | 'uuid';

export const SEARCH_MESSAGES = {
  failed: 'Failed to search portals',
  none: 'No Items found',
  idFormat: 'Enter a portal id (a number).',
} as const;

/** The dashboard of a search result: its domain, its active branch (':' for '/'), en_GB. */
export const dashboardPath = (p: Portal) =>
  `/domain/${String(p.domainId)}/portal/${String(p.id)}/branch/${branchToUrl(p.activeBranch || 'master')}/en_GB/dashboard`;

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
    queryKey: ['portals-admin', 'search', query],
    queryFn: () =>
      query!.mode === 'pn' ? portalApi.search(query!.text, undefined) : portalApi.search(undefined, query!.text),
    enabled: query !== null,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim() === '' || idError) return;
    setQuery({ mode, text: text.trim() });
  }

  const list = results.data ?? [];

  return (
    <AdminPage title="Admin Search" intro="Find a portal in any domain by a part of its name or by its id.">
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
        <Card variant="outlined">
          {list.length === 0 ? (
            <Typography sx={{ p: 2 }}>{SEARCH_MESSAGES.none}</Typography>
          ) : (
            <TableContainer>
              <Table size="small" aria-label="Search results">
                <TableHead>
                  <TableRow>
                    <TableCell>Name</TableCell>
                    <TableCell>Portal id</TableCell>
                    <TableCell>Domain id</TableCell>
                    <TableCell>Status</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {list.map((p) => (
                    <TableRow
                      key={`${String(p.domainId)}/${String(p.id)}`}
                      hover
                      tabIndex={0}
                      sx={{ cursor: 'pointer' }}
                      aria-label={`Open ${p.name}`}
                      onClick={() => navigate(dashboardPath(p))}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' || e.key === ' ') {
                          e.preventDefault();
                          navigate(dashboardPath(p));
                        }
                      }}
                    >
                      <TableCell>{p.name}</TableCell>
                      <TableCell>{p.id}</TableCell>
                      <TableCell>{p.domainId}</TableCell>
                      <TableCell>{p.status === 'active' && !p.deactivated ? 'Active' : 'Inactive'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </Card>
      )}
    </AdminPage>
  );
}
