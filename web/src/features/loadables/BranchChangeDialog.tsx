import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useId } from 'react';
import { answerBranchChange, useBranchGuardStore } from './branchGuard';
import { BRANCH_CHANGE_DIALOG_WIDTH, LOADABLE_MESSAGES as MSG } from './messages';

/**
 * The 600-wide warning that a branch change is attempted while a loadable is being created
 * (spec 3 §2, §9): Continue switches, Cancel (or closing) keeps the branch.
 */
export function BranchChangeDialog({ open, onAnswer }: { open: boolean; onAnswer: (ok: boolean) => void }) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={() => onAnswer(false)}
      aria-labelledby={titleId}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: BRANCH_CHANGE_DIALOG_WIDTH, maxWidth: 'calc(100vw - 32px)' } } }}
    >
      <DialogTitle id={titleId}>{MSG.branchChangeTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText>{MSG.branchChangeText}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onAnswer(false)}>{MSG.cancel}</Button>
        <Button variant="contained" color="warning" onClick={() => onAnswer(true)}>
          {MSG.continue}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Shows the dialog when confirmBranchChange() asks (mounted once, in the header). */
export function BranchChangeDialogHost() {
  const open = useBranchGuardStore((s) => s.pending !== null);
  useEffect(() => {
    useBranchGuardStore.setState((s) => ({ hosts: s.hosts + 1 }));
    return () => {
      useBranchGuardStore.setState((s) => ({ hosts: s.hosts - 1 }));
      if (useBranchGuardStore.getState().hosts === 0) answerBranchChange(false);
    };
  }, []);
  return <BranchChangeDialog open={open} onAnswer={answerBranchChange} />;
}
