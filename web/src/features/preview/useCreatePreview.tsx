import { useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router';
import { toApiError } from '../../api/errors';
import type { Id } from '../../api/portal';
import { PREVIEW_ERROR_CODES, previewApi, type PortalPreviewType, type Preview } from '../../api/preview';
import { useSelectionStore, type SelectionState } from '../../core/selectionStore';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showToast } from '../../core/toastService';
import { ActionFailure, useAction } from '../../ui/useAction';
import { LivePreviewUnavailableOverlay } from './LivePreviewUnavailableOverlay';
import { livePreviewUnstablePath, PREVIEW_MESSAGES as MSG } from './messages';

/** What a failed POST preview/{d}/{p} leads to (spec 3 §2, §8; docs/api.md "Preview"). */
export type PreviewFailure = 'unavailable' | 'unstable' | 'toast';

export function previewFailure(error: unknown): PreviewFailure {
  const e = toApiError(error);
  if (e.hasCode(PREVIEW_ERROR_CODES.unavailable)) return 'unavailable';
  if (e.hasCode(PREVIEW_ERROR_CODES.unstable)) return 'unstable';
  return 'toast';
}

export interface CreatePreviewHandle {
  /** Asks for a preview of the open portal on the selection's branch, language and page. */
  create: (type: PortalPreviewType) => Promise<Preview | null>;
  /** The type being requested (null when none is): the buttons are disabled meanwhile. */
  pending: PortalPreviewType | null;
  /** The 'Can't open live preview' overlay (render it once). */
  overlay: ReactElement;
}

/** One preview request, with the selection it was made in. */
type PreviewRequest = { type: PortalPreviewType } & Pick<SelectionState, 'branch' | 'language' | 'page'>;

/**
 * Creates portal previews: one request at a time; LIVE_PREVIEW_UNAVAILABLE opens the 'Can't
 * open live preview' overlay, LIVE_PREVIEW_UNSTABLE goes to error/live-preview-unstable, any
 * other failure is the 'Failed to generate preview' toast with the server's message.
 */
export function useCreatePreview(
  domainId: Id,
  portalId: Id,
  onCreated?: (preview: Preview) => void,
): CreatePreviewHandle {
  const navigate = useNavigate();
  const [unavailable, setUnavailable] = useState<{ message: string | null } | null>(null);
  const action = useAction({
    action: async ({ type, branch, language, page }: PreviewRequest) => {
      const preview = await previewApi.create(domainId, portalId, {
        type,
        ...(branch ? { branch } : {}),
        ...(language ? { language } : {}),
        ...(page?.id ? { page: page.id } : {}),
      });
      onCreated?.(preview);
      return preview;
    },
    failure: MSG.failed,
  });

  const create = async (type: PortalPreviewType): Promise<Preview | null> => {
    const { branch, language, page } = useSelectionStore.getState();
    try {
      return await action.submit({ type, branch, language, page });
    } catch (failure) {
      // A second create while one runs sends nothing.
      if (!(failure instanceof ActionFailure)) return null;
      const error = failure.error;
      const e = toApiError(error);
      switch (previewFailure(error)) {
        case 'unavailable':
          setUnavailable({ message: e.serverMessage ?? null });
          break;
        case 'unstable':
          void navigate(
            livePreviewUnstablePath({ domain: String(domainId), portal: String(portalId), branch, language }),
          );
          break;
        default:
          showToast({
            type: 'DANGER',
            title: MSG.failed,
            message: e.errorMessage,
            timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
            closeButton: true,
          });
      }
      return null;
    }
  };

  const overlay = (
    <LivePreviewUnavailableOverlay
      open={!!unavailable}
      message={unavailable?.message}
      onClose={() => setUnavailable(null)}
    />
  );
  return { create, pending: action.variables?.type ?? null, overlay };
}
