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

/** At most this many toasts (besides prompts) are shown at once; older ones wait (newest at the bottom). */
export const MAX_VISIBLE_TOASTS = 4;

/**
 * The toast stack, bottom right: clear of the header bar and the screens' primary actions
 * (top right of each page frame). Danger and warning toasts are alerts; the others are status
 * messages.
 */
export function ToastStack() {
  const all = useToastStore((s) => s.toasts);
  const recent = new Set(
    all
      .filter((t) => !t.isPrompt)
      .slice(-MAX_VISIBLE_TOASTS)
      .map((t) => t.id),
  );
  // Prompts stay until answered; of the others the newest are shown.
  const items = all.filter((t) => t.isPrompt || recent.has(t.id));
  if (items.length === 0) return null;
  return (
    <Stack
      spacing={1}
      sx={{
        position: 'fixed',
        bottom: 16,
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
      sx={{
        cursor: toast.tapToDismiss ? 'pointer' : undefined,
        '& .MuiAlert-message': { overflowWrap: 'anywhere', minWidth: 0 },
      }}
      action={
        toast.isPrompt ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
            <Button
              color="inherit"
              size="small"
              variant="outlined"
              sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
              onClick={() => dismissToast(toast.id, true)}
            >
              {toast.promptAcceptText}
            </Button>
            <Button
              color="inherit"
              size="small"
              sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
              onClick={() => dismissToast(toast.id, false)}
            >
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
