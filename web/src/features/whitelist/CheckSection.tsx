import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { checkPortal, urlOrigin, whitelistKeys, type CheckedUrl } from '../../api/whitelist';
import { showHttpError } from '../../core/toastService';
import { DataTable, type Column } from '../../ui/DataTable';
import { WHITELIST_MESSAGES as MSG } from './messages';
import {
  blockedOrigins,
  chosenOrigins,
  pendingOrigins,
  toggledOrigin,
  USAGES_SHOWN,
  type BlockedOrigin,
} from './model';
import { visuallyHidden } from './WhitelistEntries';

/**
 * 'Check portal': every external URL of the workspace with an Allowed / Not allowed chip and
 * where it is used, the origins of the URLs not allowed, and 'Add to whitelist'.
 */
export function CheckSection({
  domain,
  portal,
  draft,
  dirty,
  canWrite,
  onAdd,
}: {
  domain: string;
  portal: string;
  draft: readonly string[];
  dirty: boolean;
  canWrite: boolean;
  onAdd: (origins: string[]) => void;
}) {
  const [requested, setRequested] = useState(false);
  const [selectedOrigins, setSelectedOrigins] = useState<string[]>([]);
  const check = useQuery({
    queryKey: whitelistKeys.check(domain, portal),
    queryFn: () => checkPortal(domain, portal),
    enabled: requested,
    retry: false,
  });
  const failed = check.isError;
  useEffect(() => {
    if (failed) showHttpError(check.error, MSG.checkFailed);
  }, [failed]);

  function run() {
    if (!requested) setRequested(true);
    else void check.refetch();
  }

  const columns: Column<CheckedUrl>[] = [
    {
      id: 'url',
      header: 'URL',
      rowHeader: true,
      sortValue: (c) => c.url,
      cell: (c) => <Box sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{c.url}</Box>,
    },
    {
      id: 'status',
      header: 'Status',
      sortValue: (c) => (c.allowed ? 1 : 0),
      cell: (c) =>
        c.allowed ? (
          <Chip size="small" color="success" label={MSG.allowed} />
        ) : (
          <Chip size="small" color="error" label={MSG.notAllowed} />
        ),
    },
    {
      id: 'usedIn',
      header: 'Used in',
      cell: (c) => (
        <Stack spacing={0.25}>
          {c.usedIn.slice(0, USAGES_SHOWN).map((u) => (
            <Typography key={`${u.path}:${String(u.line)}`} variant="body2" sx={{ fontFamily: 'monospace' }}>
              {`${u.path}:${String(u.line)}`}
            </Typography>
          ))}
          {c.usedIn.length > USAGES_SHOWN && (
            <Typography variant="body2" color="text.secondary">
              {`and ${String(c.usedIn.length - USAGES_SHOWN)} more`}
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      id: 'action',
      header: <Box sx={visuallyHidden}>Actions</Box>,
      align: 'right',
      cell: (c) => {
        if (c.allowed || !canWrite) return null;
        const origin = urlOrigin(c.url);
        if (!origin) return null;
        const added = draft.includes(origin);
        return (
          <Button
            size="small"
            sx={{ whiteSpace: 'nowrap' }}
            startIcon={added ? undefined : <AddIcon />}
            disabled={added}
            aria-label={added ? `Added: ${origin}` : MSG.addUrlOriginLabel(origin)}
            onClick={() => onAdd([origin])}
          >
            {added ? MSG.added : MSG.addToWhitelist}
          </Button>
        );
      },
    },
  ];

  const result = check.data;
  // The URLs not allowed, by origin: a real site has hundreds of URLs on a few hosts (issue 22).
  const blocked = useMemo(() => blockedOrigins(result?.urls ?? []), [result]);
  const pending = pendingOrigins(blocked, draft);
  const chosen = chosenOrigins(selectedOrigins, pending);
  const addOrigins = (origins: string[]) => {
    onAdd(origins);
    setSelectedOrigins((s) => s.filter((o) => !origins.includes(o)));
  };
  const toggle = (origin: string, on: boolean) => setSelectedOrigins((s) => toggledOrigin(s, origin, on));
  const originColumns: Column<BlockedOrigin>[] = [
    {
      id: 'select',
      header: <Box sx={visuallyHidden}>Select</Box>,
      width: 48,
      cell: (o) =>
        canWrite && !draft.includes(o.origin) ? (
          <Checkbox
            size="small"
            checked={chosen.includes(o.origin)}
            onChange={(e) => toggle(o.origin, e.target.checked)}
            slotProps={{ input: { 'aria-label': `Select ${o.origin}` } }}
          />
        ) : null,
    },
    {
      id: 'origin',
      header: 'Origin',
      rowHeader: true,
      sortValue: (o) => o.origin,
      cell: (o) => <Box sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{o.origin}</Box>,
    },
    {
      id: 'count',
      header: 'URLs not allowed',
      align: 'right',
      sortValue: (o) => o.count,
      cell: (o) => String(o.count),
    },
    {
      id: 'action',
      header: <Box sx={visuallyHidden}>Actions</Box>,
      align: 'right',
      cell: (o) => {
        if (!canWrite) return null;
        const added = draft.includes(o.origin);
        return (
          <Button
            size="small"
            sx={{ whiteSpace: 'nowrap' }}
            startIcon={added ? undefined : <AddIcon />}
            disabled={added}
            aria-label={added ? `Added: ${o.origin}` : MSG.addOriginLabel(o.origin, o.count)}
            onClick={() => addOrigins([o.origin])}
          >
            {added ? MSG.added : MSG.addAllFromOrigin}
          </Button>
        );
      },
    },
  ];
  return (
    <Card variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="whitelist-check-title">
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Stack sx={{ flex: 1 }}>
            <Typography variant="h6" component="h2" id="whitelist-check-title">
              {MSG.checkTitle}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {MSG.checkIntro}
            </Typography>
          </Stack>
          <Button variant="outlined" onClick={run} disabled={check.isFetching}>
            {check.isFetching ? 'Checking…' : MSG.checkTitle}
          </Button>
        </Stack>
        {dirty && result && <Alert severity="warning">{MSG.unsavedCheck}</Alert>}
        {!requested ? (
          <Typography color="text.secondary">{MSG.checkIdle}</Typography>
        ) : (
          <>
            {result && (
              <Typography role="status">
                {MSG.summary(result.urls.length, result.scanned, result.notAllowed)}
              </Typography>
            )}
            {result?.truncated && <Alert severity="info">{MSG.truncated}</Alert>}
            {blocked.length > 0 && (
              <Stack spacing={1} component="section" aria-labelledby="whitelist-origins-title">
                <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="subtitle1" component="h3" id="whitelist-origins-title" sx={{ flex: 1 }}>
                    {MSG.originsTitle}
                  </Typography>
                  {canWrite && (
                    <>
                      <Button
                        variant="outlined"
                        size="small"
                        disabled={chosen.length === 0}
                        onClick={() => addOrigins(chosen)}
                      >
                        {MSG.addSelected(chosen.length)}
                      </Button>
                      <Button
                        variant="outlined"
                        size="small"
                        disabled={pending.length === 0}
                        onClick={() => addOrigins(pending.map((o) => o.origin))}
                      >
                        {MSG.addAllOrigins(pending.length)}
                      </Button>
                    </>
                  )}
                </Stack>
                <DataTable label={MSG.originsTitle} columns={originColumns} rows={blocked} rowKey={(o) => o.origin} />
              </Stack>
            )}
            <DataTable
              label="External URLs"
              columns={columns}
              rows={result?.urls}
              rowKey={(c) => c.url}
              loading={check.isFetching && !result}
              loadingText="Checking the portal"
              error={check.error}
              errorTitle={MSG.checkFailed}
              onRetry={() => void check.refetch()}
              emptyText={MSG.noUrls}
            />
          </>
        )}
      </Stack>
    </Card>
  );
}
