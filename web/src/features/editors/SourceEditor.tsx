import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import type { Id } from '../../api/portal';
import { toasts } from '../../app/toasts/toastService';
import { ConfirmDialog, PendingButton } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { SelectField } from '../../ui/SelectField';
import { ACE_THEMES, modeForPath } from './aceConfig';
import { ConflictDialog } from './ConflictDialog';
import { useFileText, type FileText } from './fileApi';
import { EDITOR_MESSAGES } from './messages';
import { useEditorTheme } from './useEditorTheme';
import { useFileSave } from './useFileSave';

// Ace is big: its own chunk, fetched when a source editor first opens.
const AceField = lazy(() => import('./AceField'));

export interface SourceEditorProps {
  domain: Id;
  portal: Id;
  /** The file's asset path ('/css/site.css'). */
  path: string;
  /** code:w and the portal active (the caller decides): without it the source is read-only, no Save. */
  canWrite: boolean;
  onClose: () => void;
  onSaved?: () => void;
}

/** The file source editor (spec 2 §2 "Asset manager"): 'Editing: {path}', Cancel and Save. */
export function SourceEditor(props: SourceEditorProps) {
  const { domain, portal, path } = props;
  const file = useFileText(domain, portal, path);
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        {EDITOR_MESSAGES.editingTitle(path)}
      </Typography>
      {file.isPending && <Loading label="Loading the file" />}
      {file.isError && (
        <LoadError title={EDITOR_MESSAGES.loadFailed} error={file.error} onRetry={() => void file.refetch()} />
      )}
      {/* The form keeps the version it started from; a background refetch does not reset the edit. */}
      {file.data && <SourceForm {...props} initial={file.data} />}
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
}: SourceEditorProps & { initial: FileText }) {
  const [base, setBase] = useState(initial);
  const [text, setText] = useState(initial.data);
  const [confirmClose, setConfirmClose] = useState(false);
  const [theme, setTheme] = useEditorTheme();
  const files = useFileSave(domain, portal, path);
  const dirty = text !== base.data;

  async function save() {
    const saved = await files.save(text, base.version);
    if (!saved) return;
    setBase({ data: text, version: saved.version });
    toasts.success(EDITOR_MESSAGES.saved);
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
      <Suspense fallback={<Loading label="Loading the editor" />}>
        <AceField
          value={text}
          onChange={setText}
          mode={modeForPath(path)}
          theme={theme}
          readOnly={!canWrite}
          label={`Source of ${path}`}
        />
      </Suspense>
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => (dirty && canWrite ? setConfirmClose(true) : onClose())} disabled={files.saving}>
          Cancel
        </Button>
        {canWrite && (
          <PendingButton pending={files.saving} disabled={!dirty} onClick={() => void save()}>
            Save
          </PendingButton>
        )}
      </Stack>
      <ConflictDialog
        open={files.conflict}
        busy={files.reloading}
        onCancel={files.dismissConflict}
        onReapply={() => void files.reload((fresh) => setBase(fresh))}
        onDiscard={() =>
          void files.reload((fresh) => {
            setBase(fresh);
            setText(fresh.data);
          })
        }
      />
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
