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
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { getWhitelist, isFileChanged, MAX_WHITELIST_ENTRIES, saveWhitelist, whitelistKeys } from '../../api/whitelist';
import { isCaptivePortal, isLimitedPortal, isUniversalPortal } from '../../core/menus';
import { PermissionView } from '../../ui/Restricted';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import { usePortalParams } from '../../core/usePortalParams';
import { isWorkspaceQueryKey } from '../../core/workspaceRefresh';
import { showHttpError, toasts } from '../../core/toastService';
import { LoadError, Loading, OpeningPortal } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { ActionFailure, useAction } from '../../ui/useAction';
import { useUnloadWarning } from '../../ui/useLeaveGuard';
import { ConflictDialog } from '../editors';
import { PresenceBar, usePresence } from '../presence';
import { CheckSection } from './CheckSection';
import { WHITELIST_MESSAGES as MSG } from './messages';
import { isDirty, reapply, urlsOf, WHITELIST_FILE, withoutUrl, withUrls } from './model';
import { AddUrlForm, WhitelistEntries } from './WhitelistEntries';
import { useSaveShortcut } from '../../core/shortcuts';

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
        <OpeningPortal title={MSG.title} />
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

function WhitelistEditor({ domain, portal }: { domain: string; portal: string }) {
  const queryClient = useQueryClient();
  const canWrite = usePermission('whitelist_write');
  const query = useQuery({
    queryKey: whitelistKeys.list(domain, portal),
    queryFn: () => getWhitelist(domain, portal),
    retry: false,
  });
  const [state, setState] = useState<Loaded | null>(null);
  const [conflict, setConflict] = useState(false);

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

  useUnloadWarning(dirty && canWrite);

  const draft = useMemo(() => state?.draft ?? [], [state]);
  const tooMany = draft.length > MAX_WHITELIST_ENTRIES;

  function addAll(urls: string[]) {
    setState((s) => {
      if (!s) return s;
      const next = withUrls(s.draft, urls);
      return next === s.draft ? s : { ...s, draft: next };
    });
  }

  function remove(url: string) {
    setState((s) => (s ? { ...s, draft: withoutUrl(s.draft, url) } : s));
  }

  const saveAction = useAction({
    action: (sent: Loaded) =>
      saveWhitelist(domain, portal, { whitelist: sent.draft.map((url) => ({ url })), baseVersion: sent.version }),
    success: MSG.saved,
    successTitle: null,
    failure: MSG.saveFailed,
    onSuccess: (saved, sent) => {
      const urls = urlsOf(saved);
      queryClient.setQueryData(whitelistKeys.list(domain, portal), saved);
      setState((s) => ({
        baseline: urls,
        draft: s && isDirty(sent.draft, s.draft) ? s.draft : urls,
        version: saved.version,
      }));
      // Local changes, the portal check and every other view of the workspace follow the save.
      void queryClient
        .invalidateQueries({
          predicate: (q) =>
            isWorkspaceQueryKey(q.queryKey, domain, portal) &&
            JSON.stringify(q.queryKey) !== JSON.stringify(whitelistKeys.list(domain, portal)),
        })
        .catch(() => undefined);
    },
  });
  const saving = saveAction.pending;

  function save() {
    if (!state || !canWrite) return;
    saveAction.submit(state).catch((failure: unknown) => {
      if (!(failure instanceof ActionFailure)) return; // already saving
      if (isFileChanged(failure.error)) setConflict(true);
      else showHttpError(failure.error, MSG.saveFailed);
    });
  }

  useSaveShortcut(save, canWrite && dirty && !tooMany && !saving && !conflict);

  /** Loads the current whitelist; with `keepEdit` the user's edit is put on top of it, unsaved. */
  const reload = useAction({
    action: (keepEdit: boolean) =>
      queryClient
        .fetchQuery({
          queryKey: whitelistKeys.list(domain, portal),
          queryFn: () => getWhitelist(domain, portal),
          staleTime: 0,
        })
        .then((fresh) => ({ fresh, keepEdit })),
    failure: MSG.loadFailed,
    onSuccess: ({ fresh, keepEdit }) => {
      const urls = urlsOf(fresh);
      setState((s) => ({
        baseline: urls,
        draft: s && keepEdit ? reapply(urls, s.baseline, s.draft) : urls,
        version: fresh.version,
      }));
      setConflict(false);
    },
  });

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

  return (
    <PageFrame
      title={MSG.title}
      intro={MSG.intro}
      actions={
        <Button variant="contained" disabled={!canWrite || !dirty || tooMany || saving} onClick={save}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
      }
    >
      <PresenceBar domain={domain} portal={portal} path={WHITELIST_FILE} />
      {!canWrite && <Alert severity="info">{MSG.readOnly}</Alert>}
      {tooMany && <Alert severity="error">{MSG.tooMany(MAX_WHITELIST_ENTRIES)}</Alert>}
      {canWrite && <AddUrlForm draft={state.draft} onAdd={(url) => addAll([url])} />}
      <WhitelistEntries draft={state.draft} canWrite={canWrite} onRemove={remove} />
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
        busy={reload.pending}
        onCancel={() => setConflict(false)}
        onReapply={() => reload.run(true)}
        onDiscard={() => reload.run(false)}
      />
    </PageFrame>
  );
}
