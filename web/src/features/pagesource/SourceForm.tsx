import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { pagesApi, type Page } from '../../api/pages';
import type { ErrorObject } from '../../api/types';
import { usePermission } from '../../core/usePermission';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { Loading } from '../../ui/Loading';
import { AceField, MergeDialog, useEditorTheme, useMergingSave, type FileBase, type FileText } from '../editors';
import { pagePath, PresenceBar, usePresence } from '../presence';
import { FindingsAlert, lineAnnotations, useFileFindings } from '../readiness';
import { SOURCE_MESSAGES as MSG } from './messages';
import {
  batchVersion,
  followsSave,
  isPageConflict,
  leavesPage,
  modePath,
  pageBase,
  pageBatch,
  pageTitle,
  shownFailure,
  unbalancedSave,
  type SaveOutcome,
  type UnbalancedSave,
} from './model';
import { LeaveDialog, UnbalancedMarkupDialog } from './SourceDialogs';
import { SourceToolbar } from './SourceToolbar';
import { useLeaveGuard } from '../../ui/useLeaveGuard';
import { useSaveShortcut } from '../../core/shortcuts';

/** What the screen reads of the form in its callbacks: whether the text is edited and its base. */
export interface SourceFormState {
  dirty: boolean;
  base: FileText | null;
}

/**
 * The page's HTML in Ace with the toolbar, the item's error, the merge dialog, the
 * unbalanced-markup warning and the leave prompt.
 */
export function SourceForm({
  domain,
  portal,
  pageId,
  initial,
  state,
}: {
  domain: string;
  portal: string;
  pageId: string;
  initial: Page;
  /** Written on every render: whether the text is edited and the version it is based on. */
  state: SourceFormState;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const canWrite = usePermission('page:w');
  const [theme, setTheme] = useEditorTheme();
  const [base, setBase] = useState<FileBase>(() => pageBase(initial));
  const [text, setText] = useState(initial.html ?? '');
  const [itemError, setItemError] = useState<Partial<ErrorObject> | null>(null);
  // Unbalanced markup asks before the page is written (issue 22 item 5).
  const [unbalanced, setUnbalanced] = useState<UnbalancedSave | null>(null);
  const path = initial.path || pagePath(pageId);
  const presence = usePresence(domain, portal, path);
  const dirty = text !== base.text;
  // The caller's readiness findings in the page's file: in the gutter and listed; ?line=n (the
  // Readiness screen's "Open") goes to that line.
  const [params] = useSearchParams();
  const findings = useFileFindings(domain, portal, path);
  const annotations = useMemo(() => lineAnnotations(findings), [findings]);
  const [goTo, setGoTo] = useState(() => {
    const line = Number(params.get('line'));
    return line > 0 ? { line } : null;
  });
  // Reported to the parent on every render (read in its callbacks only).
  state.dirty = dirty && canWrite;
  state.base = { data: base.text, version: base.version };

  const files = useMergingSave({
    domain,
    portal,
    path,
    write: async (html, version) => {
      const [result] = await pagesApi.batch(domain, portal, pageBatch(pageId, html, version));
      return batchVersion(result);
    },
    read: async () => pageBase(await pagesApi.get(domain, portal, pageId)),
    isConflict: isPageConflict,
    onFailure: (error) => {
      const shown = shownFailure(error);
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
    const follows = followsSave(domain, portal, pageId);
    void queryClient.invalidateQueries({ predicate: (q) => follows(q.queryKey) }).catch(() => undefined);
    return 'saved';
  }
  const saving = files.saving;

  // Leaving with unsaved changes: Save (then go) or Continue (go without saving).
  const blocker = useLeaveGuard(dirty && canWrite, leavesPage);

  async function saveAndLeave() {
    const outcome = await save();
    if (outcome === 'saved') blocker.proceed?.();
    else blocker.reset?.();
  }

  /** Save, after a warning when the markup does not balance. */
  function requestSave(leaving: boolean) {
    const warning = unbalancedSave(text, leaving);
    if (warning) {
      setUnbalanced(warning);
      return;
    }
    void (leaving ? saveAndLeave() : save());
  }

  useSaveShortcut(() => requestSave(false), canWrite && dirty && !saving && !files.conflict && unbalanced === null);

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
      <SourceToolbar
        theme={theme}
        onTheme={setTheme}
        onDesignerMode={() => void navigate(modePath(location.pathname, 'designer-mode') + location.search)}
        canWrite={canWrite}
        saving={saving}
        dirty={dirty}
        onSave={() => requestSave(false)}
      />
      {itemError && (
        <Alert severity="error" role="alert" onClose={() => setItemError(null)}>
          <AlertTitle>{itemError.errorTitle || MSG.saveFailed}</AlertTitle>
          {itemError.errorMessage}
        </Alert>
      )}
      <FindingsAlert findings={findings} onLine={(line) => setGoTo({ line })} />
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
          label={MSG.editorLabel(pageTitle(initial))}
          annotations={annotations}
          goTo={goTo}
        />
      </Suspense>
      <MergeDialog {...files.dialog} />
      <UnbalancedMarkupDialog
        unbalanced={unbalanced}
        onSaveAnyway={confirmUnbalanced}
        onKeepEditing={cancelUnbalanced}
      />
      <LeaveDialog
        open={blocker.state === 'blocked' && unbalanced === null}
        saving={saving}
        onContinue={() => blocker.proceed?.()}
        onSave={() => requestSave(true)}
        onStay={() => blocker.reset?.()}
      />
    </Stack>
  );
}
