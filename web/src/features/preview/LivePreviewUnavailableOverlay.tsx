import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { PREVIEW_MESSAGES as MSG } from './messages';

/**
 * The 'Can't open live preview' overlay (spec 3 §2): the live-preview workspace changed and
 * cannot be opened as it is (409 LIVE_PREVIEW_UNAVAILABLE). It shows the server's reason when
 * there is one and tells the user to contact the Domain Administrator if the error persists.
 */
export function LivePreviewUnavailableOverlay({
  open,
  message,
  onClose,
}: {
  open: boolean;
  /** The server's reason; the spec's sentence when omitted. */
  message?: string | null;
  onClose: () => void;
}) {
  const titleId = useId();
  const text = message || MSG.unavailableMessage;
  // The server's reason may already say whom to contact.
  const saysContact = /Domain Administrator/i.test(text);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{MSG.unavailableTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText gutterBottom>{text}</DialogContentText>
        {!saysContact && <DialogContentText>{MSG.unavailableContact}</DialogContentText>}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} autoFocus>
          {MSG.ok}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
