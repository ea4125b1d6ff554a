import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { SETTINGS_MESSAGES } from './model';

/** A short list of changes ('Added language fr_FR'). */
export function ChangeLines({ lines, label }: { lines: string[]; label?: string }) {
  if (lines.length === 0) return null;
  return (
    <Box component="ul" aria-label={label} sx={{ my: 0.5, pl: 3 }}>
      {lines.map((line) => (
        <li key={line}>
          <Typography variant="body2">{line}</Typography>
        </li>
      ))}
    </Box>
  );
}

/**
 * portal.json changed in the workspace while the user edited it: nothing was saved; the user's
 * changes are listed, and the user reloads with or without them.
 */
export function SettingsConflictDialog({
  message,
  changes,
  busy,
  onCancel,
  onResolve,
}: {
  /** Why (null: the dialog is closed). */
  message: string | null;
  /** The user's unsaved changes, in words. */
  changes: string[];
  busy: boolean;
  onCancel: () => void;
  /** Reload the file; with `reapply` the user's changes are put on top of it. */
  onResolve: (reapply: boolean) => void;
}) {
  return (
    <Dialog
      open={message !== null}
      onClose={() => !busy && onCancel()}
      fullWidth
      maxWidth="sm"
      aria-labelledby="settings-conflict-title"
      aria-describedby="settings-conflict-text"
    >
      <DialogTitle id="settings-conflict-title">{SETTINGS_MESSAGES.conflictTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText id="settings-conflict-text" sx={{ mb: 2 }}>
          {message}
        </DialogContentText>
        <Typography variant="subtitle2" component="p">
          {SETTINGS_MESSAGES.nothingSaved}
        </Typography>
        <ChangeLines lines={changes} label="Your unsaved changes" />
        <DialogContentText sx={{ mt: 2 }}>{SETTINGS_MESSAGES.reloadHint}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button color="warning" onClick={() => onResolve(false)} disabled={busy}>
          {SETTINGS_MESSAGES.reloadAndDiscard}
        </Button>
        <Button variant="contained" onClick={() => onResolve(true)} disabled={busy}>
          {SETTINGS_MESSAGES.reloadAndReapply}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
