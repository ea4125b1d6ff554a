/** The row actions of Manage Loadables, each through useAction (toasts, refresh, pending). */
import { loadableApi, loadableKeys, READINESS_ERRORS, type Loadable } from '../../api/loadables';
import type { Preview } from '../../api/preview';
import { toApiError } from '../../api/errors';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showHttpError, toasts } from '../../core/toastService';
import { ActionBusyError, ActionFailure, useAction } from '../../ui/useAction';
import { LOADABLE_MESSAGES as MSG } from './messages';

export function useLoadableActions(
  domain: string,
  portal: string,
  {
    onPreview,
    onDone,
    onOverride,
  }: {
    onPreview: (preview: Preview) => void;
    onDone: () => void;
    /** The gate refused approval (409 READINESS_ERRORS): ask for an override reason. */
    onOverride: (loadable: Loadable) => void;
  },
) {
  const list = [loadableKeys.list(domain, portal)];
  const generate = useAction({
    action: (l: Loadable) => loadableApi.generate(domain, portal, l.id),
    failure: MSG.generateFailed,
    invalidate: list,
  });
  const approveCall = useAction({
    action: ({ loadable, reason }: { loadable: Loadable; reason?: string }) =>
      loadableApi.approve(domain, portal, loadable.id, reason),
    success: MSG.approved,
    failure: MSG.approveFailed,
    invalidate: list,
  });
  /** Approve; a refusal by the readiness gate opens the override dialog instead of a toast. */
  const approve = {
    pending: approveCall.pending,
    run: (l: Loadable) => {
      approveCall.submit({ loadable: l }).catch((error: unknown) => {
        if (!(error instanceof ActionFailure)) return;
        if (toApiError(error.error).hasCode(READINESS_ERRORS)) onOverride(l);
        else showHttpError(error.error, MSG.approveFailed);
      });
    },
    /** Approve over the readiness errors with a reason (for the override form: rejects on failure). */
    override: (l: Loadable, reason: string) => approveCall.submit({ loadable: l, reason: reason.trim() }),
  };
  const reject = useAction({
    action: ({ loadable, reason }: { loadable: Loadable; reason: string }) =>
      loadableApi.reject(domain, portal, loadable.id, reason),
    success: MSG.rejected,
    failure: MSG.rejectFailed,
    invalidate: list,
    onSuccess: onDone,
  });
  const preview = useAction({
    action: ({ loadable, emulator }: { loadable: Loadable; emulator: string }) =>
      loadableApi.preview(domain, portal, loadable.version, emulator),
    failure: MSG.previewFailed,
    onSuccess: onPreview,
  });
  /** Spec 3 §8: a failed download is the danger toast 'Could not download loadable'. */
  const download = useAction({
    action: (l: Loadable) => loadableApi.download(domain, portal, l.fileName),
    failure: MSG.downloadFailed,
  });
  const downloadSafely = {
    pending: download.pending,
    run: (l: Loadable) => {
      download.submit(l).catch((error: unknown) => {
        if (error instanceof ActionBusyError) return;
        const cause = (error as { error?: unknown }).error ?? error;
        toasts.danger(toApiError(cause).errorMessage, MSG.downloadFailed, {
          timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
          closeButton: true,
        });
      });
    },
  };
  return { generate, approve, reject, preview, download: downloadSafely };
}

export type LoadableActionsHandle = ReturnType<typeof useLoadableActions>;
