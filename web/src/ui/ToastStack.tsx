import Alert, { type AlertColor } from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { useId, useRef } from 'react';
import { useTakeFocus } from './useTakeFocus';
import { visuallyHidden } from './visuallyHidden';
import { dismissToast, useToastStore, type Toast, type ToastType } from '../core/toastService';

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
  if (toast.isPrompt) return <PromptItem toast={toast} />;
  return (
    <Alert
      role={role}
      severity={SEVERITY[toast.type]}
      variant="filled"
      elevation={6}
      onClick={toast.tapToDismiss ? () => dismissToast(toast.id) : undefined}
      onClose={dismissible ? () => dismissToast(toast.id) : undefined}
      sx={ALERT_SX}
    >
      {toast.title && <AlertTitle>{toast.title}</AlertTitle>}
      {toast.message}
      {toast.count > 1 && <RepeatCount count={toast.count} />}
    </Alert>
  );
}

const ALERT_SX = { '& .MuiAlert-message': { overflowWrap: 'anywhere', minWidth: 0, flex: 1 } } as const;

/**
 * A question (toasts.prompt) is an alert dialog: it takes the focus on its safe answer (the
 * reject button) so the keyboard reaches it at once; Escape rejects it; once answered the focus
 * goes back to the control that asked (issue 31).
 */
function PromptItem({ toast }: { toast: Toast }) {
  const id = useId();
  const reject = useRef<HTMLButtonElement>(null);
  useTakeFocus(reject);
  return (
    <Alert
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={toast.title ? `${id}-message` : undefined}
      severity={SEVERITY[toast.type]}
      variant="filled"
      elevation={6}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        dismissToast(toast.id, false);
      }}
      sx={ALERT_SX}
    >
      {toast.title && <AlertTitle id={`${id}-title`}>{toast.title}</AlertTitle>}
      <span id={toast.title ? `${id}-message` : `${id}-title`}>{toast.message}</span>
      {/* Under the message: a narrow toast keeps room for its text. */}
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
          ref={reject}
          color="inherit"
          size="small"
          sx={{ whiteSpace: 'nowrap' }}
          onClick={() => dismissToast(toast.id, false)}
        >
          {toast.promptRejectText}
        </Button>
      </Stack>
    </Alert>
  );
}

/** '×3' after a toast shown three times (read as '(shown 3 times)'). */
function RepeatCount({ count }: { count: number }) {
  return (
    <Box component="span" data-testid="toast-count" sx={{ ml: 1, fontWeight: 700, whiteSpace: 'nowrap' }}>
      <span aria-hidden>{`×${count}`}</span>
      <Box component="span" sx={visuallyHidden}>{` (shown ${count} times)`}</Box>
    </Box>
  );
}
