import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { portalApi, type Id, type WorkspaceStatus } from '../../../api/portal';
import { overlay } from '../../../core/overlayStore';
import { paths } from '../../../core/paths';
import { refreshWorkspaceViews, workspaceChanged } from '../../../core/workspaceRefresh';
import { selectLimits, useSessionStore } from '../../../core/sessionStore';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { useAction } from '../../../ui/useAction';
import { CONFLICT_MESSAGES as MSG } from '../../conflicts';

export interface ConflictAlertProps {
  d: Id;
  p: Id;
  branch: string;
  language: string;
  /** The server's conflict message. */
  message: string;
  /** Resolve conflicts and a finished Reset leave the panel. */
  onLeave: () => void;
  /** Reset went through (the conflict is over). */
  onReset: () => void;
}

/**
 * The local commits conflict with the branch: the server's message with Resolve conflicts (the
 * resolution screen) and Reset Workspace, which asks first (the commits and uncommitted changes
 * are kept under Recover discarded work for as many days as the server keeps them), then goes
 * to the dashboard of the branch the server put the workspace on (the active one when this
 * branch was deleted).
 */
export function ConflictAlert({ d, p, branch, language, message, onLeave, onReset }: ConflictAlertProps) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const keptDays = useSessionStore(selectLimits)?.discardedWorkDays;
  const reset = useAction<void, WorkspaceStatus>({
    action: async () => {
      overlay.show(MSG.resetting);
      try {
        return await portalApi.reset(d, p, branch);
      } finally {
        overlay.hide();
      }
    },
    failure: MSG.resetFailed,
    onSuccess: async (status) => {
      // The server answers where the workspace now is: this branch, or the portal's active
      // branch when this one was deleted.
      const target = status?.branch || branch;
      setConfirming(false);
      onReset();
      onLeave();
      if (target === branch) await workspaceChanged(client, { domainId: d, portalId: p, branch }, { reopen: true });
      // The selection chain opens the other branch when the URL names it.
      else void refreshWorkspaceViews(client, d, p);
      void navigate(paths.portalScreen(d, p, target, language, 'dashboard'));
    },
  });

  return (
    <>
      <Alert
        severity="error"
        action={
          <Stack spacing={1} sx={{ alignItems: 'flex-end' }}>
            <Button
              color="inherit"
              size="small"
              variant="outlined"
              onClick={() => {
                onLeave();
                void navigate(paths.portalConflicts(d, p, branch, language));
              }}
            >
              {MSG.resolveConflicts}
            </Button>
            <Button color="inherit" size="small" onClick={() => setConfirming(true)}>
              {MSG.resetWorkspace}
            </Button>
          </Stack>
        }
      >
        {message}
      </Alert>
      <ConfirmDialog
        open={confirming}
        title={MSG.resetTitle}
        message={MSG.resetQuestion(keptDays)}
        confirmLabel={MSG.resetConfirm}
        danger
        pending={reset.pending}
        onConfirm={() => reset.run()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
