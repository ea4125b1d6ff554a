/**
 * Source mode (spec 2 §2 "Routes": …/pages/{pageId}/source-mode): the page's HTML in the Ace
 * editor, saved through the designer's batch (type 'page', the version it was read at). A stale
 * version opens the conflict choice, an item's error is shown; leaving with unsaved changes asks
 * 'Would you like to save your changes before navigating?' (Save / Continue). The master page
 * ('master-page') edits index.html.
 */
import CodeIcon from '@mui/icons-material/DesignServicesOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useBlocker, useLocation, useNavigate, useParams } from 'react-router';
import { isFileChanged } from '../../api/client';
import { toApiError } from '../../api/errors';
import { MASTER_PAGE_ID, pageKeys, pagesApi, isStaleItem, type Page } from '../../api/pages';
import type { ErrorObject } from '../../api/types';
import { PermissionView } from '../../app/permissions/Restricted';
import { usePermission } from '../../app/permissions/usePermission';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { isWorkspaceQueryKey } from '../../app/selection/workspaceRefresh';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../app/toasts/toastService';
import { ConfirmDialog, PendingButton } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { SelectField } from '../../ui/SelectField';
import { ACE_THEMES } from '../editors/aceConfig';
import { MergeDialog } from '../editors/MergeDialog';
import { useEditorTheme } from '../editors/useEditorTheme';
import { useMergingSave, type FileBase } from '../editors/useMergingSave';
import { pagePath, PresenceBar, usePresence } from '../presence';
import { usePortalParams } from '../portals-admin/shared';
import { markupProblem, type MarkupProblem } from './markup';
import { SOURCE_MESSAGES as MSG } from './messages';

// Ace is big: its own chunk, fetched when the editor first opens.
const AceField = lazy(() => import('../editors/AceField'));

/** The path of the same page in another mode: the current route with its last segment replaced. */
export function modePath(pathname: string, mode: 'designer-mode' | 'source-mode'): string {
  return pathname.replace(/\/(source-mode|designer-mode)\/?$/, `/${mode}`);
}

export default function SourceModeScreen() {
  const { domain, portal, branch, opened } = usePortalParams();
  const { pageId = '' } = useParams();
  return (
    <PermissionView permission="page:r">
      {opened ? (
        <SourceMode key={`${domain}/${portal}/${branch}/${pageId}`} domain={domain} portal={portal} pageId={pageId} />
      ) : (
        <PageFrame title={MSG.title}>
          <Loading label="Opening the portal" />
        </PageFrame>
      )}
    </PermissionView>
  );
}

interface ModeProps {
  domain: string;
  portal: string;
  pageId: string;
}

function SourceMode({ domain, portal, pageId }: ModeProps) {
  // The edit keeps the version it started from: no background refetch replaces it.
  const page = useQuery({
    queryKey: pageKeys.page(domain, portal, pageId),
    queryFn: () => pagesApi.get(domain, portal, pageId),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const title = page.data ? page.data.title || page.data.id : pageId;
  useEffect(() => {
    if (!page.data) return;
    const current = useSelectionStore.getState().page;
    const next = { id: page.data.id, title: page.data.title || page.data.id };
    if (current?.id !== next.id || current.title !== next.title) useSelectionStore.setState({ page: next });
  }, [page.data]);

  return (
    <PageFrame
      title={MSG.title}
      overline="Page"
      badge={<Chip size="small" label={title} data-testid="source-page" />}
      intro={pageId === MASTER_PAGE_ID ? MSG.masterNote : undefined}
    >
      {page.isPending && <Loading label="Loading the page" />}
      {page.isError && <LoadError title={MSG.retrieveFailed} error={page.error} onRetry={() => void page.refetch()} />}
      {page.data && <SourceForm domain={domain} portal={portal} pageId={pageId} initial={page.data} />}
    </PageFrame>
  );
}

/** A batch item's failure other than a stale version: shown with the editor. */
class ItemError extends Error {
  constructor(readonly item: Partial<ErrorObject>) {
    super(item.errorMessage ?? '');
  }
}

/** A batch item refused because the page's file changed (409 FILE_CHANGED). */
class StaleItem extends Error {}

type SaveOutcome = 'saved' | 'not-saved';

function SourceForm({ domain, portal, pageId, initial }: ModeProps & { initial: Page }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const canWrite = usePermission('page:w');
  const [theme, setTheme] = useEditorTheme();
  const [base, setBase] = useState<FileBase>({ text: initial.html ?? '', version: initial.version ?? '' });
  const [text, setText] = useState(initial.html ?? '');
  const [itemError, setItemError] = useState<Partial<ErrorObject> | null>(null);
  // Unbalanced markup asks before the page is written (issue 22 item 5).
  const [unbalanced, setUnbalanced] = useState<{ problem: MarkupProblem; leaving: boolean } | null>(null);
  const path = initial.path || pagePath(pageId);
  const presence = usePresence(domain, portal, path);
  const dirty = text !== base.text;

  const files = useMergingSave({
    domain,
    portal,
    path,
    write: async (html, version) => {
      const [result] = await pagesApi.batch(domain, portal, [
        { file: pageId, data: html, type: 'page', version: version ?? '' },
      ]);
      if (result && isStaleItem(result)) throw new StaleItem();
      if (!result || result.error)
        throw new ItemError(result?.error ?? { errorMessage: 'The server answered no result for the page.' });
      return result.version ?? '';
    },
    read: async () => {
      const fresh = await pagesApi.get(domain, portal, pageId);
      return { text: fresh.html ?? '', version: fresh.version ?? '' };
    },
    isConflict: (error) => error instanceof StaleItem || isFileChanged(error),
    onFailure: (error) => {
      const shown =
        error instanceof ItemError
          ? error.item
          : { errorTitle: MSG.saveFailed, errorMessage: toApiError(error).errorMessage };
      setItemError(shown);
      toasts.show({
        type: 'DANGER',
        title: MSG.saveFailed,
        message: shown.errorMessage ?? '',
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
    },
    onLoad: (next, nextBase) => {
      setBase(nextBase);
      setText(next);
      setItemError(null);
    },
  });

  async function save(): Promise<SaveOutcome> {
    setItemError(null);
    const saved = await files.save(text, base);
    if (!saved) return 'not-saved';
    setBase(saved.base);
    if (saved.merged) setText(saved.text);
    else toasts.success(MSG.saved);
    // The header's local changes (and every other view of the workspace) follow the save.
    const own = JSON.stringify(pageKeys.page(domain, portal, pageId));
    void queryClient
      .invalidateQueries({
        predicate: (q) => isWorkspaceQueryKey(q.queryKey, domain, portal) && JSON.stringify(q.queryKey) !== own,
      })
      .catch(() => undefined);
    return 'saved';
  }
  const saving = files.saving;

  // Leaving with unsaved changes: Save (then go) or Continue (go without saving).
  const guard = dirty && canWrite;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      guard && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!guard) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [guard]);

  async function saveAndLeave() {
    const outcome = await save();
    if (outcome === 'saved') blocker.proceed?.();
    else blocker.reset?.();
  }

  /** Save, after a warning when the markup does not balance. */
  function requestSave(leaving: boolean) {
    const problem = markupProblem(text);
    if (problem) {
      setUnbalanced({ problem, leaving });
      return;
    }
    void (leaving ? saveAndLeave() : save());
  }

  function confirmUnbalanced() {
    const leaving = unbalanced?.leaving ?? false;
    setUnbalanced(null);
    void (leaving ? saveAndLeave() : save());
  }

  function cancelUnbalanced() {
    if (unbalanced?.leaving) blocker.reset?.();
    setUnbalanced(null);
  }

  return (
    <Stack spacing={2}>
      <PresenceBar domain={domain} portal={portal} path={path} />
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        role="toolbar"
        aria-label="Source mode"
        sx={{ alignItems: 'center', flexWrap: 'wrap' }}
      >
        <Button
          variant="outlined"
          startIcon={<CodeIcon />}
          onClick={() => void navigate(modePath(location.pathname, 'designer-mode') + location.search)}
        >
          {MSG.designerMode}
        </Button>
        <SelectField
          label="Theme"
          value={theme}
          onChange={setTheme}
          options={ACE_THEMES.map(([value, label]) => ({ value, label }))}
          sx={{ width: 240 }}
        />
        <Stack direction="row" sx={{ flex: 1, justifyContent: 'flex-end' }}>
          {canWrite && (
            <PendingButton pending={saving} disabled={!dirty} onClick={() => requestSave(false)}>
              Save
            </PendingButton>
          )}
        </Stack>
      </Stack>
      {itemError && (
        <Alert severity="error" role="alert" onClose={() => setItemError(null)}>
          <AlertTitle>{itemError.errorTitle || MSG.saveFailed}</AlertTitle>
          {itemError.errorMessage}
        </Alert>
      )}
      <Suspense fallback={<Loading label="Loading the editor" />}>
        <AceField
          value={text}
          onChange={(next) => {
            setText(next);
            presence.markEditing();
          }}
          mode="html"
          theme={theme}
          readOnly={!canWrite}
          label={MSG.editorLabel(initial.title || initial.id)}
        />
      </Suspense>
      <MergeDialog {...files.dialog} />
      <ConfirmDialog
        open={unbalanced !== null}
        title={MSG.unbalancedTitle}
        message={unbalanced ? MSG.unbalancedText(unbalanced.problem) : ''}
        confirmLabel={MSG.saveAnyway}
        cancelLabel={MSG.keepEditing}
        onConfirm={confirmUnbalanced}
        onClose={cancelUnbalanced}
      />
      <Dialog
        open={blocker.state === 'blocked' && unbalanced === null}
        onClose={() => !saving && blocker.reset?.()}
        fullWidth
        maxWidth="xs"
        aria-labelledby="source-leave-title"
      >
        <DialogTitle id="source-leave-title">{MSG.leaveTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText>{MSG.leaveQuestion}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => blocker.proceed?.()} disabled={saving}>
            Continue
          </Button>
          <PendingButton pending={saving} onClick={() => requestSave(true)}>
            Save
          </PendingButton>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
