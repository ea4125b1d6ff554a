import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { ReactNode } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Red confirm button (deletes, deactivations). */
  danger?: boolean;
  /** The action runs: confirm is disabled and shows progress; the dialog cannot be closed. */
  pending?: boolean;
  /** Confirm stays disabled besides (e.g. until what the action affects is known). */
  confirmDisabled?: boolean;
  maxWidth?: 'xs' | 'sm' | 'md';
  onConfirm: () => void;
  onClose: () => void;
  /** The cancel button's action where it is not just closing (default: onClose). */
  onCancel?: () => void;
}

/** Asks before an action; while the action runs a second click sends nothing. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger,
  pending = false,
  confirmDisabled,
  maxWidth = 'xs',
  onConfirm,
  onClose,
  onCancel = onClose,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={() => !pending && onClose()}
      fullWidth
      maxWidth={maxWidth}
      aria-busy={pending || undefined}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {typeof message === 'string' ? <DialogContentText>{message}</DialogContentText> : message}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={pending}>
          {cancelLabel}
        </Button>
        <PendingButton
          pending={pending}
          disabled={confirmDisabled}
          color={danger ? 'error' : 'primary'}
          onClick={() => !pending && onConfirm()}
        >
          {confirmLabel}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A contained button that is disabled and shows a spinner while `pending` (its label, and so
 * its accessible name, stays the same). Type 'submit' inside forms.
 */
export function PendingButton({
  pending,
  disabled,
  children,
  type = 'button',
  color = 'primary',
  variant = 'contained',
  onClick,
}: {
  pending: boolean;
  disabled?: boolean;
  children: ReactNode;
  type?: 'button' | 'submit';
  color?: 'primary' | 'error';
  variant?: 'contained' | 'outlined';
  onClick?: () => void;
}) {
  return (
    <Button
      type={type}
      variant={variant}
      color={color}
      disabled={pending || disabled}
      aria-busy={pending || undefined}
      onClick={onClick}
      startIcon={pending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {children}
    </Button>
  );
}
