import Alert, { type AlertColor } from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
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

/** Where the stack sits: the bottom left corner, over the side navigation's foot. */
export const TOAST_STACK_OFFSET = 16;
export const TOAST_WIDTH = 320;

/**
 * The toast stack, bottom left, over the foot of the side navigation (issue 21): never over the
 * header bar, the screens' primary actions (top right of each page frame), the editors' Save and
 * Cancel rows (bottom right of the content) or a dialog's actions (right-aligned, centred
 * dialog). Repeated toasts show once with a count ('×3'). Danger and warning toasts are alerts;
 * the others are status messages.
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
        bottom: TOAST_STACK_OFFSET,
        left: TOAST_STACK_OFFSET,
        zIndex: (t) => t.zIndex.snackbar,
        width: TOAST_WIDTH,
        maxWidth: `calc(100vw - ${2 * TOAST_STACK_OFFSET}px)`,
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
        '& .MuiAlert-message': { overflowWrap: 'anywhere', minWidth: 0, flex: 1 },
      }}
    >
      {toast.title && <AlertTitle>{toast.title}</AlertTitle>}
      {toast.message}
      {toast.isPrompt && (
        // Under the message: a narrow toast keeps room for its text.
        <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
          <Button
            color="inherit"
            size="small"
            variant="outlined"
            sx={{ whiteSpace: 'nowrap' }}
            onClick={() => dismissToast(toast.id, true)}
          >
            {toast.promptAcceptText}
          </Button>
          <Button
            color="inherit"
            size="small"
            sx={{ whiteSpace: 'nowrap' }}
            onClick={() => dismissToast(toast.id, false)}
          >
            {toast.promptRejectText}
          </Button>
        </Stack>
      )}
      {toast.count > 1 && <RepeatCount count={toast.count} />}
    </Alert>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** '×3' after a toast shown three times (read as '(shown 3 times)'). */
function RepeatCount({ count }: { count: number }) {
  return (
    <Box component="span" data-testid="toast-count" sx={{ ml: 1, fontWeight: 700, whiteSpace: 'nowrap' }}>
      <span aria-hidden>{`×${count}`}</span>
      <Box component="span" sx={visuallyHidden}>{` (shown ${count} times)`}</Box>
    </Box>
  );
}
