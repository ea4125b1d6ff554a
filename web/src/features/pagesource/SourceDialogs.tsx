import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { SOURCE_MESSAGES as MSG } from './messages';
import type { UnbalancedSave } from './model';

/** The warning before a page with unbalanced markup is written: Keep editing / Save anyway. */
export function UnbalancedMarkupDialog({
  unbalanced,
  onSaveAnyway,
  onKeepEditing,
}: {
  unbalanced: UnbalancedSave | null;
  onSaveAnyway: () => void;
  onKeepEditing: () => void;
}) {
  return (
    <ConfirmDialog
      open={unbalanced !== null}
      title={MSG.unbalancedTitle}
      message={unbalanced ? MSG.unbalancedText(unbalanced.problem) : ''}
      confirmLabel={MSG.saveAnyway}
      cancelLabel={MSG.keepEditing}
      onConfirm={onSaveAnyway}
      onClose={onKeepEditing}
    />
  );
}

/**
 * Leaving with unsaved changes: 'Would you like to save your changes before navigating?' —
 * Continue goes without saving, Save saves and then goes; closing the prompt stays. While the
 * save runs neither button nor closing does anything.
 */
export function LeaveDialog({
  open,
  saving,
  onContinue,
  onSave,
  onStay,
}: {
  open: boolean;
  saving: boolean;
  onContinue: () => void;
  onSave: () => void;
  onStay: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title={MSG.leaveTitle}
      message={MSG.leaveQuestion}
      confirmLabel="Save"
      cancelLabel="Continue"
      pending={saving}
      onConfirm={onSave}
      onCancel={onContinue}
      onClose={onStay}
    />
  );
}
