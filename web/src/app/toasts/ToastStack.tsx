import Alert, { type AlertColor } from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { dismissToast, useToastStore, type Toast, type ToastType } from './toastService';

const SEVERITY: Record<ToastType, AlertColor> = {
  INFO: 'info',
  SUCCESS: 'success',
  WARNING: 'warning',
  DANGER: 'error',
};

/**
 * The toast stack, top right below the header bar. Danger and warning toasts
 * are alerts; the others are status messages.
 */
export function ToastStack() {
  const items = useToastStore((s) => s.toasts);
  if (items.length === 0) return null;
  return (
    <Stack
      spacing={1}
      sx={{
        position: 'fixed',
        top: 72,
        right: 16,
        zIndex: (t) => t.zIndex.snackbar,
        width: 360,
        maxWidth: 'calc(100vw - 32px)',
      }}
    >
      {items.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </Stack>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismissible = toast.closeButton || toast.showDismissIcon;
  const role = toast.type === 'DANGER' || toast.type === 'WARNING' ? 'alert' : 'status';
  return (
    <Alert
      role={role}
      severity={SEVERITY[toast.type]}
      variant="filled"
      elevation={6}
      onClick={toast.tapToDismiss ? () => dismissToast(toast.id) : undefined}
      onClose={dismissible ? () => dismissToast(toast.id) : undefined}
      sx={{ cursor: toast.tapToDismiss ? 'pointer' : undefined, wordBreak: 'break-word' }}
      action={
        toast.isPrompt ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button color="inherit" size="small" variant="outlined" onClick={() => dismissToast(toast.id, true)}>
              {toast.promptAcceptText}
            </Button>
            <Button color="inherit" size="small" onClick={() => dismissToast(toast.id, false)}>
              {toast.promptRejectText}
            </Button>
          </Stack>
        ) : undefined
      }
    >
      {toast.title && <AlertTitle>{toast.title}</AlertTitle>}
      {toast.message}
    </Alert>
  );
}
