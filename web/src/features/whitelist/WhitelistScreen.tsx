/**
 * The Whitelist screen (spec 3 §2 "Whitelist screen", §3 "Whitelist entry", §5, §7, §8):
 * …/branch/{branch}/{language}/whitelist.
 *
 * The whitelist of the caller's workspace (whitelist.json, versioned per branch) as a table of
 * URLs with Remove, a URL field with Add (the spec's URL rule), and Save (disabled while nothing
 * changed, while the list is invalid, while saving, or without whitelist_write). A save sends the
 * version read; a stale one opens the conflict dialog (as the other editors). Below, 'Check
 * portal' lists every external URL of the workspace with an Allowed / Not allowed chip, where it
 * is used, and 'Add to whitelist' (its origin) for the ones not allowed.
 *
 * A failed load shows the danger toast 'Could not load Whitelist'. For limited, captive and
 * UNIVERSAL portals (whose menu entry is hidden) the screen shows a notice.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  checkPortal,
  getWhitelist,
  isFileChanged,
  MAX_WHITELIST_ENTRIES,
  saveWhitelist,
  urlOrigin,
  whitelistKeys,
  type CheckedUrl,
  type Whitelist,
} from '../../api/whitelist';
import { isCaptivePortal, isLimitedPortal, isUniversalPortal } from '../../app/nav/menus';
import { PermissionView } from '../../app/permissions/Restricted';
import { usePermission } from '../../app/permissions/usePermission';
import { isWorkspaceQueryKey } from '../../app/selection/workspaceRefresh';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { showHttpError, toasts } from '../../app/toasts/toastService';
import { DataTable, type Column } from '../../ui/DataTable';
import { LoadError, Loading } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { ConflictDialog } from '../editors/ConflictDialog';
import { usePortalParams } from '../portals-admin/shared';
import { PresenceBar, usePresence } from '../presence';
import { WHITELIST_MESSAGES as MSG } from './messages';

/** The file the whitelist screen edits (issue 21 presence). */
const WHITELIST_FILE = 'whitelist.json';
import { isDirty, newUrlError, reapply } from './model';

export default function WhitelistScreen() {
  const { domain, portal, branch, opened } = usePortalParams();
  const selected = useSelectionStore((s) => s.portal);
  const unavailable = isLimitedPortal(selected) || isCaptivePortal(selected) || isUniversalPortal(selected);
  return (
    <PermissionView permission="whitelist:r">
      {unavailable ? (
        <PageFrame title={MSG.title}>
          <Alert severity="info" role="alert">
            {MSG.notAvailable}
          </Alert>
        </PageFrame>
      ) : !opened ? (
        <PageFrame title={MSG.title}>
          <Loading label="Opening the portal" />
        </PageFrame>
      ) : (
        <WhitelistEditor key={`${domain}/${portal}/${branch}`} domain={domain} portal={portal} />
      )}
    </PermissionView>
  );
}

interface Loaded {
  baseline: string[];
  draft: string[];
  version: string;
}

const urlsOf = (w: Whitelist) => w.whitelist.map((e) => e.url);

function WhitelistEditor({ domain, portal }: { domain: string; portal: string }) {
  const queryClient = useQueryClient();
  const canWrite = usePermission('whitelist_write');
  const query = useQuery({
    queryKey: whitelistKeys.list(domain, portal),
    queryFn: () => getWhitelist(domain, portal),
    retry: false,
  });
  const [state, setState] = useState<Loaded | null>(null);
  const [newUrl, setNewUrl] = useState('');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [reloading, setReloading] = useState(false);

  const dirty = !!state && isDirty(state.baseline, state.draft);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const { markEditing } = usePresence(domain, portal, WHITELIST_FILE);
  useEffect(() => {
    if (dirty) markEditing();
  }, [dirty, markEditing]);

  // A fresh load is taken over unless the user has unsaved changes (they keep the version they
  // started from: a save then meets the conflict dialog, never overwrites silently).
  const data = query.data;
  useEffect(() => {
    if (!data || dirtyRef.current) return;
    const urls = urlsOf(data);
    setState({ baseline: urls, draft: urls, version: data.version });
  }, [data]);

  const failed = query.isError;
  useEffect(() => {
    if (failed) toasts.danger(MSG.loadFailed, undefined, { closeButton: true });
  }, [failed]);

  useEffect(() => {
    if (!dirty || !canWrite) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, canWrite]);

  const draft = useMemo(() => state?.draft ?? [], [state]);
  const newUrlMessage = newUrlError(newUrl, draft);
  const tooMany = draft.length > MAX_WHITELIST_ENTRIES;

  function add(url: string) {
    addAll([url]);
  }

  function addAll(urls: string[]) {
    setState((s) => {
      if (!s) return s;
      const fresh = urls.filter((u, i) => !s.draft.includes(u) && urls.indexOf(u) === i);
      return fresh.length ? { ...s, draft: [...s.draft, ...fresh] } : s;
    });
  }

  function remove(url: string) {
    setState((s) => (s ? { ...s, draft: s.draft.filter((u) => u !== url) } : s));
  }

  function submitNew(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (newUrlMessage !== null || !canWrite) return;
    add(newUrl.trim());
    setNewUrl('');
    setTouched(false);
  }

  async function save() {
    if (!state || !canWrite || saving) return;
    const snapshot = state.draft;
    setSaving(true);
    try {
      const saved = await saveWhitelist(domain, portal, {
        whitelist: snapshot.map((url) => ({ url })),
        baseVersion: state.version,
      });
      const urls = urlsOf(saved);
      queryClient.setQueryData(whitelistKeys.list(domain, portal), saved);
      setState((s) => ({
        baseline: urls,
        draft: s && isDirty(snapshot, s.draft) ? s.draft : urls,
        version: saved.version,
      }));
      toasts.success(MSG.saved);
      // Local changes, the portal check and every other view of the workspace follow the save.
      void queryClient
        .invalidateQueries({
          predicate: (q) =>
            isWorkspaceQueryKey(q.queryKey, domain, portal) &&
            JSON.stringify(q.queryKey) !== JSON.stringify(whitelistKeys.list(domain, portal)),
        })
        .catch(() => undefined);
    } catch (error) {
      if (isFileChanged(error)) setConflict(true);
      else showHttpError(error, MSG.saveFailed);
    } finally {
      setSaving(false);
    }
  }

  async function reloadAfterConflict(keepEdit: boolean) {
    setReloading(true);
    try {
      const fresh = await queryClient.fetchQuery({
        queryKey: whitelistKeys.list(domain, portal),
        queryFn: () => getWhitelist(domain, portal),
        staleTime: 0,
      });
      const urls = urlsOf(fresh);
      setState((s) => ({
        baseline: urls,
        draft: s && keepEdit ? reapply(urls, s.baseline, s.draft) : urls,
        version: fresh.version,
      }));
      setConflict(false);
    } catch (error) {
      showHttpError(error, MSG.loadFailed);
    } finally {
      setReloading(false);
    }
  }

  if (query.isError && !state)
    return (
      <PageFrame title={MSG.title}>
        <LoadError title={MSG.loadFailed} error={query.error} onRetry={() => void query.refetch()} />
      </PageFrame>
    );
  if (!state)
    return (
      <PageFrame title={MSG.title}>
        <Loading label="Loading the whitelist" />
      </PageFrame>
    );

  const entryColumns: Column<string>[] = [
    {
      id: 'url',
      header: 'URL',
      rowHeader: true,
      sortValue: (u) => u,
      cell: (u) => <Box sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{u}</Box>,
    },
    {
      id: 'actions',
      header: <Box sx={visuallyHidden}>Actions</Box>,
      align: 'right',
      width: 64,
      cell: (u) =>
        canWrite ? (
          <Tooltip title="Remove">
            <IconButton size="small" aria-label={`Remove ${u}`} onClick={() => remove(u)}>
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null,
    },
  ];

  return (
    <PageFrame
      title={MSG.title}
      intro={MSG.intro}
      actions={
        <Button variant="contained" disabled={!canWrite || !dirty || tooMany || saving} onClick={() => void save()}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
      }
    >
      <PresenceBar domain={domain} portal={portal} path={WHITELIST_FILE} />
      {!canWrite && <Alert severity="info">{MSG.readOnly}</Alert>}
      {tooMany && <Alert severity="error">{MSG.tooMany(MAX_WHITELIST_ENTRIES)}</Alert>}
      {canWrite && (
        <Stack
          component="form"
          direction="row"
          spacing={1}
          sx={{ alignItems: 'flex-start' }}
          onSubmit={submitNew}
          noValidate
          aria-label="Add a URL"
        >
          <TextField
            size="small"
            fullWidth
            label="URL"
            placeholder="https://"
            value={newUrl}
            onChange={(e) => setNewUrl(e.target.value)}
            onBlur={() => setTouched(newUrl !== '')}
            error={touched && newUrlMessage !== null}
            helperText={(touched && newUrlMessage) || ' '}
          />
          <Button type="submit" variant="outlined" startIcon={<AddIcon />} disabled={newUrl.trim() === ''}>
            Add
          </Button>
        </Stack>
      )}
      <DataTable label="Whitelist" columns={entryColumns} rows={state.draft} rowKey={(u) => u} emptyText={MSG.empty} />
      <CheckSection
        domain={domain}
        portal={portal}
        draft={state.draft}
        dirty={dirty}
        canWrite={canWrite}
        onAdd={addAll}
      />
      <ConflictDialog
        open={conflict}
        busy={reloading}
        onCancel={() => setConflict(false)}
        onReapply={() => void reloadAfterConflict(true)}
        onDiscard={() => void reloadAfterConflict(false)}
      />
    </PageFrame>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

const USAGES_SHOWN = 3;

interface BlockedOrigin {
  origin: string;
  count: number;
}

/** The origins of the URLs not allowed, most URLs first. */
function blockedOrigins(urls: readonly CheckedUrl[]): BlockedOrigin[] {
  const counts = new Map<string, number>();
  for (const u of urls) {
    if (u.allowed) continue;
    const origin = urlOrigin(u.url);
    if (origin) counts.set(origin, (counts.get(origin) ?? 0) + 1);
  }
  return [...counts]
    .map(([origin, count]) => ({ origin, count }))
    .sort((a, b) => b.count - a.count || a.origin.localeCompare(b.origin));
}

function CheckSection({
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
  const pending = blocked.filter((o) => !draft.includes(o.origin));
  const chosen = selectedOrigins.filter((o) => pending.some((p) => p.origin === o));
  const addOrigins = (origins: string[]) => {
    onAdd(origins);
    setSelectedOrigins((s) => s.filter((o) => !origins.includes(o)));
  };
  const toggle = (origin: string, on: boolean) =>
    setSelectedOrigins((s) => (on ? [...s.filter((o) => o !== origin), origin] : s.filter((o) => o !== origin)));
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
