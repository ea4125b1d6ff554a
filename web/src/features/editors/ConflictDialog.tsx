import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { EDITOR_MESSAGES } from './messages';

export interface ConflictDialogProps {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  /** Reload the file and keep the user's edit on top of it (nothing is saved yet). */
  onReapply: () => void;
  /** Reload the file and drop the user's edit. */
  onDiscard: () => void;
}

/**
 * A save refused with 409 FILE_CHANGED by an editor whose data is not one file's text (the
 * translation manager's languages, the whitelist's list): the user decides; nothing is
 * overwritten, and "reapply" puts only the user's own changes on top (their models' rebase).
 * Editors that save a file's text merge instead (useMergingSave, MergeDialog).
 */
export function ConflictDialog({ open, busy, onCancel, onReapply, onDiscard }: ConflictDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={() => !busy && onCancel()}
      fullWidth
      maxWidth="sm"
      aria-labelledby="editor-conflict-title"
    >
      <DialogTitle id="editor-conflict-title">{EDITOR_MESSAGES.conflictTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{EDITOR_MESSAGES.conflictText}</DialogContentText>
        <DialogContentText>{EDITOR_MESSAGES.conflictHint}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button color="warning" onClick={onDiscard} disabled={busy}>
          {EDITOR_MESSAGES.reloadAndDiscard}
        </Button>
        <Button variant="contained" onClick={onReapply} disabled={busy}>
          {EDITOR_MESSAGES.reloadAndReapply}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
