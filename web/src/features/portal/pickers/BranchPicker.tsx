import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toApiError } from '../../../api/errors';
import { portalKeys } from '../../../api/portal';
import { overlay } from '../../../core/overlayStore';
import { waitForTasks } from '../../taskrunner';
import { confirmBranchChange } from '../../loadables';
import type { SelectorPickerProps } from '../../../core/registry';
import { CHAIN_MESSAGES, loadReferences, parsePortalRoute, portalRoutePath } from '../../../core/portalChain';
import { useSelectionStore } from '../../../core/selectionStore';
import { refreshWorkspaceViews, reopenPortal } from '../../../core/workspaceRefresh';
import { showHttpError, toasts } from '../../../core/toastService';
import { branchName } from '../../../lib/validation';
import { branchLabel } from '../format';
import { DELETED_ON_HOST } from '../../upstream';
import { PickerPopover, pickerWaiting } from '../../../ui/PickerPopover';

export const BAD_BRANCH_MESSAGE = 'The Selected branch name contains special characters and could not be opened';
export const DISCARD_AND_SWITCH = 'Discard local changes and switch';

/** Select Branch (spec 1 §2.3, spec 3 §4): the portal's branches; choosing one switches the workspace to it. */
export default function BranchPicker({ anchorEl, onClose }: SelectorPickerProps) {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const current = useSelectionStore((s) => s.branch);
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();
  const [conflict, setConflict] = useState<{ branch: string; message: string } | null>(null);
  const d = domain?.id ?? '';
  const p = portal?.id ?? '';
  const refs = useQuery({
    queryKey: portalKeys.references(d, p),
    queryFn: () => loadReferences(d, p),
    enabled: !!domain && !!portal,
    retry: false,
  });

  const switchTo = async (branch: string, override: boolean) => {
    overlay.show(CHAIN_MESSAGES.switchingBranch);
    await waitForTasks(); // spec 3 §4 "Branch switching": waits for running tasks
    try {
      // The workspace is now on the other branch: the selection and every view derived from
      // the workspace follow (core/workspaceRefresh.ts).
      const opened = await reopenPortal(d, p, branch, override);
      const lang = useSelectionStore.getState().language ?? 'en_GB';
      void refreshWorkspaceViews(client, d, p);
      const route = parsePortalRoute(location.pathname);
      onClose();
      void navigate(
        `${portalRoutePath(d, p, opened.branch || branch, lang, route?.rest ?? 'dashboard')}${location.search}`,
      );
    } catch (error) {
      const apiError = toApiError(error);
      if (!override && apiError.httpStatus === 409 && apiError.hasCode('GIT_LOCAL_COMMITS_ERROR')) {
        setConflict({ branch, message: apiError.errorMessage });
      } else {
        showHttpError(error, 'Could not switch branch');
      }
    } finally {
      overlay.hide();
    }
  };

  const choose = (branch: string) => {
    if (branchName(branch) !== null) {
      toasts.warning(BAD_BRANCH_MESSAGE);
      return;
    }
    if (branch === current) {
      onClose();
      return;
    }
    // Spec 3 §4: while a loadable of this portal is being created, the switch waits for a confirmation.
    void confirmBranchChange().then((ok) => (ok ? switchTo(branch, false) : undefined));
  };

  let body = pickerWaiting(refs, 'Loading Branches');
  if (refs.isSuccess) {
    body = (
      <List dense aria-label="Branches">
        {refs.data.allReferences.map((name) => (
          <ListItemButton key={name} selected={name === current} onClick={() => choose(name)} title={name}>
            <ListItemText
              primary={branchLabel(name)}
              secondary={refs.data.deletedOnHost?.includes(name) ? DELETED_ON_HOST : undefined}
            />
          </ListItemButton>
        ))}
      </List>
    );
  }

  return (
    <>
      <PickerPopover
        open={!conflict}
        anchorEl={anchorEl}
        onClose={onClose}
        label="Select Branch"
        paperSx={{ width: 320, maxHeight: 560 }}
      >
        {body}
      </PickerPopover>
      <Dialog open={!!conflict} onClose={onClose} aria-labelledby="branch-conflict-title">
        <DialogTitle id="branch-conflict-title">Local changes</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {/* The server's message names the branch with the changes (the current one). */}
            {conflict?.message} Switching to '{conflict?.branch}' anyway discards them (they are kept under Recover
            discarded work).
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            color="warning"
            variant="contained"
            onClick={() => {
              const branch = conflict?.branch;
              setConflict(null);
              if (branch) void switchTo(branch, true);
            }}
          >
            {DISCARD_AND_SWITCH}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
