import Button from '@mui/material/Button';
import { useState } from 'react';
import { toApiError } from '../../api/errors';
import { previewApi } from '../../api/preview';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showToast } from '../../core/toastService';
import { ActionFailure, useAction } from '../../ui/useAction';
import { previewNotice, type CardActionsProps, type Notification, type PreviewNotice } from '../realtime';
import { PREVIEW_MESSAGES as MSG } from './messages';
import { PreviewDetailDialog } from './PreviewDetailDialog';

/**
 * The actions of a preview generation card (spec 3 §4 "Previews"): Details (the preview detail
 * dialog), Open preview (the link in a new tab) once it succeeded, and Retry on an error card
 * that carries its request (spec 3 §8: a failed retry shows the error's title and message).
 */
export function PreviewCardActions({ card, notice }: { card: Pick<Notification, 'status'>; notice: PreviewNotice }) {
  const [open, setOpen] = useState(false);
  const { preview, retry } = notice;
  const retryAction = useAction({
    action: (request: NonNullable<PreviewNotice['retry']>) =>
      previewApi.create(request.domainId, request.portalId, {
        type: request.type,
        ...(request.branch ? { branch: request.branch } : {}),
        ...(request.language ? { language: request.language } : {}),
        ...(request.page ? { page: request.page } : {}),
      }),
    failure: MSG.retry,
  });
  const retrying = retryAction.pending;

  const onRetry = async () => {
    if (!retry || retrying) return;
    try {
      await retryAction.submit(retry);
    } catch (failure) {
      if (!(failure instanceof ActionFailure)) return;
      // The error's own title, whatever it is (spec 3 §8).
      const e = toApiError(failure.error);
      showToast({
        type: 'DANGER',
        title: e.errorTitle,
        message: e.errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
    }
  };

  return (
    <>
      {preview && (
        <Button size="small" onClick={() => setOpen(true)}>
          {MSG.details}
        </Button>
      )}
      {card.status === 'SUCCESS' && preview?.link && (
        <Button size="small" component="a" href={preview.link} target="_blank" rel="noopener noreferrer">
          {MSG.openPreview}
        </Button>
      )}
      {card.status === 'ERROR' && retry && (
        <Button size="small" color="error" disabled={retrying} onClick={() => void onRetry()}>
          {MSG.retry}
        </Button>
      )}
      {open && preview && (
        <PreviewDetailDialog
          // A finished card's preview is as the server last told it; an ERROR one is FAILED.
          preview={
            card.status === 'SUCCESS' && preview.status === 'PROGRESS'
              ? { ...preview, status: preview.link ? 'READY' : preview.status }
              : preview
          }
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/** A notification card's preview actions (registered with the notification centre): none for other cards. */
export function PreviewNotificationActions({ card }: CardActionsProps) {
  const notice = previewNotice(card);
  return notice && <PreviewCardActions card={card} notice={notice} />;
}
