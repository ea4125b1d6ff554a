import { dismissToast, showToast } from '../../core/toastService';

export const CONNECTION_UNSTABLE = 'Connection unstable';

/**
 * Connectivity (spec 1 §4.4): going offline shows a persistent danger toast
 * 'Connection unstable'; coming back online removes it. Returns a function
 * that stops watching.
 */
export function watchConnectivity(target: Window = window): () => void {
  let toastId: number | null = null;
  const onOffline = () => {
    if (toastId !== null) return;
    toastId =
      showToast({ type: 'DANGER', message: CONNECTION_UNSTABLE, autoDismiss: false, tapToDismiss: false })?.id ?? null;
  };
  const onOnline = () => {
    if (toastId === null) return;
    dismissToast(toastId);
    toastId = null;
  };
  target.addEventListener('offline', onOffline);
  target.addEventListener('online', onOnline);
  return () => {
    target.removeEventListener('offline', onOffline);
    target.removeEventListener('online', onOnline);
    onOnline();
  };
}
