import Button from '@mui/material/Button';
import { useState } from 'react';
import { toApiError } from '../../api/errors';
import { previewApi } from '../../api/preview';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showToast } from '../../app/toasts/toastService';
import type { Notification, PreviewNotice } from '../realtime/notificationsStore';
import { PREVIEW_MESSAGES as MSG } from './messages';
import { PreviewDetailDialog } from './PreviewDetailDialog';

/**
 * The actions of a preview generation card (spec 3 §4 "Previews"): Details (the preview detail
 * dialog), Open preview (the link in a new tab) once it succeeded, and Retry on an error card
 * that carries its request (spec 3 §8: a failed retry shows the error's title and message).
 */
export function PreviewCardActions({ card, notice }: { card: Pick<Notification, 'status'>; notice: PreviewNotice }) {
  const [open, setOpen] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const { preview, retry } = notice;

  const onRetry = async () => {
    if (!retry || retrying) return;
    setRetrying(true);
    try {
      await previewApi.create(retry.domainId, retry.portalId, {
        type: retry.type,
        ...(retry.branch ? { branch: retry.branch } : {}),
        ...(retry.language ? { language: retry.language } : {}),
        ...(retry.page ? { page: retry.page } : {}),
      });
    } catch (error) {
      const e = toApiError(error);
      showToast({
        type: 'DANGER',
        title: e.errorTitle,
        message: e.errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
    } finally {
      setRetrying(false);
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
