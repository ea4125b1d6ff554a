import { toasts } from '../core/toastService';

/** Copies text to the clipboard and says so in a toast: `copied` on success, `failed` when the browser refuses. */
export async function copyText(text: string, messages: { copied: string; failed: string }): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toasts.success(messages.copied);
  } catch {
    toasts.danger(messages.failed);
  }
}
