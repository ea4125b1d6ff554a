import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { EDITOR_MESSAGES } from '../editors';

/**
 * The reload warning (issue 22 item 6): the workspace changed under an unsaved edit (Revert All,
 * Revert To, Reset, Reload Now); the edit is kept and Reload shows the page as it now is.
 */
export function WorkspaceChangedAlert({ onReload }: { onReload: () => void }) {
  return (
    <Alert
      severity="warning"
      role="alert"
      action={
        <Button color="inherit" size="small" onClick={onReload}>
          {EDITOR_MESSAGES.reload}
        </Button>
      }
    >
      {EDITOR_MESSAGES.workspaceChanged}
    </Alert>
  );
}
