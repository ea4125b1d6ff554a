/**
 * The actions of the loadable notification cards (spec 3 §2 "loadable notification cards", §3
 * "Loadable upload notification", §8), shown by the notification centre under a card:
 *
 * - GENERATE_LOADABLE (data {loadable, loadableId, domainId, portalId, …}): Manage Loadables;
 *   Download once generated; on a failed build, Build output (FAILED_TO_CREATE_LOADABLE_USING_MAKELOAD)
 *   and Retry (generate again).
 * - UPLOAD_LOADABLE (data {portalId, domainId, loadableId, deliveryId, target, …}): Manage
 *   Loadables; Retry on a failed hand-over ('Your package is now being downloaded and will be
 *   available shortly.').
 *
 * Renders nothing for other cards.
 */
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  GENERATE_LOADABLE,
  isLoadable,
  loadableApi,
  MAKELOAD_ERROR_CODE,
  UPLOAD_LOADABLE,
  type Loadable,
} from '../../api/loadables';
import { toApiError } from '../../api/errors';
import { paths } from '../../core/paths';
import { ACTIVE_BRANCH_SEGMENT } from '../../core/portalChain';
import { useSelectionStore } from '../../core/selectionStore';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { ActionFailure, useAction } from '../../ui/useAction';
import type { Notification } from '../realtime';
import { BuildOutputDialog } from './dialogs';
import { LOADABLE_MESSAGES as MSG } from './messages';

export interface LoadableCardData {
  domainId: string;
  portalId: string;
  loadableId: string;
  deliveryId: string | null;
  loadable: Loadable | null;
}

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

/** The loadable facts of a GENERATE_LOADABLE or UPLOAD_LOADABLE card; null for other cards. */
export function loadableCardData(card: Pick<Notification, 'messageType' | 'data'>): LoadableCardData | null {
  if (card.messageType !== GENERATE_LOADABLE && card.messageType !== UPLOAD_LOADABLE) return null;
  if (!card.data || typeof card.data !== 'object') return null;
  const d = card.data as Record<string, unknown>;
  const loadable = isLoadable(d.loadable) ? d.loadable : null;
  const domainId = str(d.domainId) ?? str(loadable?.domainId);
  const portalId = str(d.portalId) ?? str(loadable?.portalId);
  const loadableId = str(d.loadableId) ?? str(loadable?.id);
  if (!domainId || !portalId || !loadableId) return null;
  return { domainId, portalId, loadableId, deliveryId: str(d.deliveryId), loadable };
}

export function LoadableCardActions({
  card,
  onNavigate,
}: {
  card: Pick<Notification, 'messageType' | 'status' | 'data'>;
  /** Goes to a path (the notification centre closes its menu first); navigates by default. */
  onNavigate?: (path: string) => void;
}) {
  const navigate = useNavigate();
  const openPortal = useSelectionStore((s) => (s.portal ? String(s.portal.id) : null));
  const openBranch = useSelectionStore((s) => s.branch);
  const [output, setOutput] = useState(false);
  const retry = useAction({
    action: ({ call }: { call: () => Promise<unknown>; success: string | null; failure: string }) => call(),
    failure: ({ failure }) => failure,
    onSuccess: (_, { success }) => success && toasts.success(success),
  });
  const download = useAction({
    action: ({ d, p, fileName }: { d: string; p: string; fileName: string }) => loadableApi.download(d, p, fileName),
    failure: MSG.downloadFailed,
  });
  const busy = retry.pending || download.pending;
  const data = loadableCardData(card);
  if (!data) return null;
  const { domainId, portalId, loadableId, deliveryId, loadable } = data;
  const upload = card.messageType === UPLOAD_LOADABLE;

  const openManage = () => {
    const branch = openPortal === portalId && openBranch ? openBranch : ACTIVE_BRANCH_SEGMENT;
    const path = paths.portalScreen(domainId, portalId, branch, undefined, 'loadables-manage');
    if (onNavigate) onNavigate(path);
    else void navigate(path);
  };

  const run = (call: () => Promise<unknown>, success: string | null, failure: string) => {
    if (!busy) retry.run({ call, success, failure });
  };

  const downloadFile = async () => {
    if (!loadable || busy) return;
    try {
      await download.submit({ d: domainId, p: portalId, fileName: loadable.fileName });
    } catch (failure) {
      if (!(failure instanceof ActionFailure)) return;
      toasts.danger(toApiError(failure.error).errorMessage, MSG.downloadFailed, {
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
    }
  };

  const failedBuild = !upload && card.status === 'ERROR' && loadable?.error?.errorCode === MAKELOAD_ERROR_CODE;
  return (
    <>
      <Button size="small" onClick={openManage}>
        {MSG.openManage}
      </Button>
      {!upload && card.status === 'SUCCESS' && loadable?.fileName && (
        <Button size="small" disabled={busy} onClick={() => void downloadFile()}>
          {MSG.download}
        </Button>
      )}
      {failedBuild && (
        <Button size="small" onClick={() => setOutput(true)}>
          {MSG.buildOutput}
        </Button>
      )}
      {card.status === 'ERROR' && (!upload || deliveryId) && (
        <Button
          size="small"
          color="error"
          disabled={busy}
          onClick={() =>
            void (upload
              ? run(
                  () => loadableApi.retryDelivery(domainId, portalId, loadableId, deliveryId ?? ''),
                  MSG.retryStarted,
                  MSG.cannotRetry,
                )
              : run(() => loadableApi.generate(domainId, portalId, loadableId), null, MSG.generateFailed))
          }
        >
          {MSG.retry}
        </Button>
      )}
      {output && loadable && <BuildOutputDialog loadable={loadable} onClose={() => setOutput(false)} />}
    </>
  );
}
