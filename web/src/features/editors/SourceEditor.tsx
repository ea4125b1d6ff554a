import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import type { Id } from '../../api/portal';
import { toasts } from '../../core/toastService';
import { ConfirmDialog, PendingButton } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { SelectField } from '../../ui/SelectField';
import { ACE_THEMES, aceMode } from './aceConfig';
import { PresenceBar, usePresence } from '../presence';
import { FindingsAlert, lineAnnotations, useFileFindings } from '../readiness';
import { useFileMeta, useFileText, useWorkspaceReload, type FileText } from './fileApi';
import { jsonSyntaxError } from './jsonText';
import { MergeDialog } from './MergeDialog';
import { EDITOR_MESSAGES } from './messages';
import { useEditorTheme } from './useEditorTheme';
import { useFileSave } from './useFileSave';
// Ace is big: its own chunk, fetched when a source editor first opens.
import { AceField } from './LazyAceField';
import { useSaveShortcut } from '../../core/shortcuts';

export interface SourceEditorProps {
  domain: Id;
  portal: Id;
  /** The file's asset path ('/css/site.css'). */
  path: string;
  /** code:w and the portal active (the caller decides): without it the source is read-only, no Save. */
  canWrite: boolean;
  onClose: () => void;
  onSaved?: () => void;
  /** A line to go to once the file shows (the Readiness screen's "Open": …&line=n). */
  line?: number;
}

/** The file source editor (spec 2 §2 "Asset manager"): 'Editing: {path}', Cancel and Save. */
export function SourceEditor(props: SourceEditorProps) {
  const { domain, portal, path } = props;
  const file = useFileText(domain, portal, path);
  const presence = usePresence(domain, portal, path);
  // The form's state, for the reload after a workspace change (revert, reset, reload, switch).
  const formState = useRef<{ dirty: boolean; base: FileText | null }>({ dirty: false, base: null });
  const refresh = useWorkspaceReload(
    file,
    () => formState.current.dirty,
    () => formState.current.base,
  );
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        {EDITOR_MESSAGES.editingTitle(path)}
      </Typography>
      <PresenceBar domain={domain} portal={portal} path={path} />
      {file.isPending && <Loading label="Loading the file" />}
      {file.isError && (
        <LoadError title={EDITOR_MESSAGES.loadFailed} error={file.error} onRetry={() => void file.refetch()} />
      )}
      {/* The form keeps the version it started from; a background refetch does not reset the edit. */}
      {refresh.changed && (
        <Alert
          severity="warning"
          role="alert"
          action={
            <Button color="inherit" size="small" onClick={refresh.reload}>
              {EDITOR_MESSAGES.reload}
            </Button>
          }
        >
          {EDITOR_MESSAGES.workspaceChanged}
        </Alert>
      )}
      {file.data && (
        <SourceForm
          key={refresh.formKey}
          {...props}
          initial={file.data}
          onEdit={presence.markEditing}
          state={formState.current}
        />
      )}
    </Stack>
  );
}

function SourceForm({
  domain,
  portal,
  path,
  canWrite,
  onClose,
  onSaved,
  initial,
  onEdit,
  state,
  line,
}: SourceEditorProps & {
  initial: FileText;
  onEdit: () => void;
  /** Written on every render: whether the text is edited and the version it is based on. */
  state: { dirty: boolean; base: FileText | null };
}) {
  const [base, setBase] = useState(initial);
  const [text, setText] = useState(initial.data);
  const [confirmClose, setConfirmClose] = useState(false);
  const [theme, setTheme] = useEditorTheme();
  const files = useFileSave(domain, portal, path, (next, nextBase) => {
    setBase({ data: nextBase.text, version: nextBase.version });
    setText(next);
  });
  // The server's word on the file: its Ace mode, and whether a save must be strict JSON (a JSON
  // file that was strict JSON or has a schema; not one with comments, which is saved as text).
  const meta = useFileMeta(domain, portal, path).data;
  const dirty = text !== base.data;
  // Reported to the parent on every render (read in its callbacks only).
  state.dirty = dirty && canWrite;
  state.base = base;
  const invalid = meta?.strictJson ? jsonSyntaxError(text) : null;
  // The caller's readiness findings in this file: in the gutter at their lines, and listed.
  const findings = useFileFindings(domain, portal, path);
  const annotations = useMemo(() => lineAnnotations(findings), [findings]);
  const [goTo, setGoTo] = useState<{ line: number } | null>(null);
  useEffect(() => {
    if (line && line > 0) setGoTo({ line });
  }, [line]);

  useSaveShortcut(() => void save(), canWrite && dirty && !invalid && !files.saving && !files.conflict);

  async function save() {
    if (invalid) return;
    const saved = await files.save(text, { text: base.data, version: base.version });
    if (!saved) return;
    setBase({ data: saved.base.text, version: saved.base.version });
    if (saved.merged) setText(saved.text);
    else toasts.success(EDITOR_MESSAGES.saved);
    onSaved?.();
  }

  return (
    <>
      <SelectField
        label="Theme"
        value={theme}
        onChange={setTheme}
        options={ACE_THEMES.map(([value, label]) => ({ value, label }))}
      />
      <FindingsAlert findings={findings} onLine={(n) => setGoTo({ line: n })} />
      <Suspense fallback={<Loading label="Loading the editor" />}>
        <AceField
          value={text}
          onChange={(next) => {
            setText(next);
            onEdit();
          }}
          mode={aceMode(meta?.editorMode)}
          theme={theme}
          readOnly={!canWrite}
          label={`Source of ${path}`}
          annotations={annotations}
          goTo={goTo}
        />
      </Suspense>
      {invalid && dirty && (
        <Alert severity="error" role="alert">
          {EDITOR_MESSAGES.wrongJson}: {invalid}
        </Alert>
      )}
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => (dirty && canWrite ? setConfirmClose(true) : onClose())} disabled={files.saving}>
          Cancel
        </Button>
        {canWrite && (
          <PendingButton pending={files.saving} disabled={!dirty || !!invalid} onClick={() => void save()}>
            Save
          </PendingButton>
        )}
      </Stack>
      <MergeDialog {...files.dialog} />
      <ConfirmDialog
        open={confirmClose}
        title={EDITOR_MESSAGES.discardTitle}
        message={EDITOR_MESSAGES.discardText}
        confirmLabel="Discard"
        danger
        onConfirm={onClose}
        onClose={() => setConfirmClose(false)}
      />
    </>
  );
}
