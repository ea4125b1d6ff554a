import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { logout } from '../../core/session';
import { useSessionStore } from '../../core/sessionStore';

export const SESSION_CONFLICT_MESSAGE = 'It appears you have logged into another session';

/**
 * Shown when the server reports that this session was replaced by a newer
 * login (401 SESSION_EXPIRED). 'Log In' ends this session and shows the login
 * screen. The dialog cannot be dismissed otherwise: the session is gone.
 */
export function SessionConflictDialog() {
  const open = useSessionStore((s) => s.sessionConflict);
  return (
    <Dialog open={open} aria-labelledby="session-conflict-title" aria-describedby="session-conflict-text">
      <DialogTitle id="session-conflict-title">Session ended</DialogTitle>
      <DialogContent>
        <DialogContentText id="session-conflict-text">{SESSION_CONFLICT_MESSAGE}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={() => void logout()}>
          Log In
        </Button>
      </DialogActions>
    </Dialog>
  );
}
