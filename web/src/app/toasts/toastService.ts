/**
 * Toast service (spec 1 §3 "Toast", §4.5, §8, §9).
 *
 * Toasts are visible, then hidden after their time-out (default 3000 ms,
 * auto-dismiss on). Prompt toasts never auto-dismiss: they show accept and
 * reject buttons (default 'Yes' / 'No') and resolve a promise with true/false.
 * An unknown type logs an error and shows nothing.
 */
import { create } from 'zustand';
import { ApiError, toApiError } from '../../api/errors';

export const TOAST_TYPES = ['INFO', 'DANGER', 'WARNING', 'SUCCESS'] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

export const DEFAULT_TOAST_TIMEOUT_MS = 3000;
export const HTTP_ERROR_TOAST_TIMEOUT_MS = 30000;

export interface ToastOptions {
  type: ToastType;
  message: string;
  title?: string;
  timeOut?: number;
  autoDismiss?: boolean;
  showDismissIcon?: boolean;
  closeButton?: boolean;
  tapToDismiss?: boolean;
  isPrompt?: boolean;
  promptAcceptText?: string;
  promptRejectText?: string;
}

export interface Toast extends Required<Omit<ToastOptions, 'title'>> {
  id: number;
  title?: string;
}

export interface ToastHandle {
  id: number;
  /** Resolves true when a prompt is accepted, false when rejected or dismissed. */
  result: Promise<boolean>;
}

interface ToastState {
  toasts: Toast[];
}

export const useToastStore = create<ToastState>(() => ({ toasts: [] }));

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const resolvers = new Map<number, (accepted: boolean) => void>();

function isToastType(value: unknown): value is ToastType {
  return typeof value === 'string' && (TOAST_TYPES as readonly string[]).includes(value);
}

export function showToast(options: ToastOptions): ToastHandle | null {
  if (!isToastType(options.type)) {
    console.error(`Unknown toast type: ${String(options.type)}`);
    return null;
  }
  const isPrompt = options.isPrompt ?? false;
  const toast: Toast = {
    id: nextId++,
    type: options.type,
    message: options.message,
    title: options.title,
    timeOut: options.timeOut ?? DEFAULT_TOAST_TIMEOUT_MS,
    autoDismiss: isPrompt ? false : (options.autoDismiss ?? true),
    showDismissIcon: options.showDismissIcon ?? false,
    closeButton: options.closeButton ?? false,
    tapToDismiss: isPrompt ? false : (options.tapToDismiss ?? true),
    isPrompt,
    promptAcceptText: options.promptAcceptText ?? 'Yes',
    promptRejectText: options.promptRejectText ?? 'No',
  };
  const result = new Promise<boolean>((resolve) => resolvers.set(toast.id, resolve));
  useToastStore.setState((s) => ({ toasts: [...s.toasts, toast] }));
  if (toast.autoDismiss) {
    timers.set(
      toast.id,
      setTimeout(() => dismissToast(toast.id), toast.timeOut),
    );
  }
  return { id: toast.id, result };
}

/** Removes a toast; a pending prompt resolves with `accepted` (false by default). */
export function dismissToast(id: number, accepted = false): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
  resolvers.get(id)?.(accepted);
  resolvers.delete(id);
  useToastStore.setState((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
}

export function clearToasts(): void {
  for (const { id } of useToastStore.getState().toasts) dismissToast(id);
}

type Shortcut = (
  message: string,
  title?: string,
  options?: Partial<Omit<ToastOptions, 'type' | 'message' | 'title'>>,
) => ToastHandle | null;

const shortcut =
  (type: ToastType): Shortcut =>
  (message, title, options) =>
    showToast({ ...options, type, message, title });

export const toasts = {
  show: showToast,
  dismiss: dismissToast,
  clear: clearToasts,
  info: shortcut('INFO'),
  success: shortcut('SUCCESS'),
  warning: shortcut('WARNING'),
  danger: shortcut('DANGER'),
  /** Asks a yes/no question; resolves true when accepted. */
  prompt(message: string, options: Partial<Omit<ToastOptions, 'message' | 'isPrompt'>> = {}): Promise<boolean> {
    const handle = showToast({ type: 'INFO', ...options, message, isPrompt: true });
    return handle ? handle.result : Promise.resolve(false);
  },
};

/** HTTP reason phrases: a server title that is one of them says nothing to a person. */
const HTTP_PHRASES = new Set(
  [
    'Bad Request',
    'Unauthorized',
    'Payment Required',
    'Forbidden',
    'Not Found',
    'Method Not Allowed',
    'Not Acceptable',
    'Request Timeout',
    'Conflict',
    'Gone',
    'Length Required',
    'Precondition Failed',
    'Payload Too Large',
    'Request Entity Too Large',
    'Unsupported Media Type',
    'Unprocessable Entity',
    'Unprocessable Content',
    'Precondition Required',
    'Too Many Requests',
    'Internal Server Error',
    'Not Implemented',
    'Bad Gateway',
    'Service Unavailable',
    'Gateway Timeout',
    'Error',
    'Failed',
  ].map((p) => p.toLowerCase()),
);

/** Whether a title is a raw HTTP phrase ('Bad Request', 'Conflict', …) rather than a human one. */
export const isRawHttpTitle = (title: string | null | undefined): boolean =>
  !title || HTTP_PHRASES.has(title.trim().toLowerCase());

/**
 * The title of an error toast: the server's own title when it is a human one, otherwise the
 * caller's title for the case ('Could not save the user').
 */
export function errorToastTitle(error: unknown, fallbackTitle: string): string {
  const title = toApiError(error).server?.errorTitle;
  return title && !isRawHttpTitle(title) ? title : fallbackTitle;
}

/**
 * Shows an HTTP error as a danger toast with a human title (see errorToastTitle) and the
 * server's message for 30000 ms, with a close button (spec 1 §8).
 */
export function showHttpError(error: unknown, fallbackTitle = 'Something went wrong'): ToastHandle | null {
  const apiError: ApiError = toApiError(error);
  return showToast({
    type: 'DANGER',
    title: errorToastTitle(error, fallbackTitle),
    message: apiError.errorMessage,
    timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
    closeButton: true,
  });
}
