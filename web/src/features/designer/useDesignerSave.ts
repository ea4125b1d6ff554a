import { useQueryClient } from '@tanstack/react-query';
import type { MutableRefObject } from 'react';
import { toApiError } from '../../api/errors';
import { pagesApi } from '../../api/pages';
import { isWorkspaceQueryKey } from '../../core/workspaceRefresh';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { ActionFailure, useAction } from '../../ui/useAction';
import { applyBatchResult, batchItems, dirtyKey, failAll, isDirty, type DirtyCache } from './dirty';
import { DESIGNER_MESSAGES as MSG } from './messages';
import { batchFailureMessage, FRAME_EPOCH } from './model';
import { designerWidgetKey, isDesignerWidgetKey } from './PropertyPanel';

/**
 * Saving the dirty cache in one batch: saved items leave the cache (their instances and versions
 * go to the property editor's queries), refused ones stay with their errors; a failed call marks
 * every item. `save` answers whether everything was saved.
 */
export function useDesignerSave({
  domain,
  portal,
  dirtyRef,
  setDirty,
}: {
  domain: string;
  portal: string;
  /** The dirty cache as it is now (edits made while the save runs stay). */
  dirtyRef: MutableRefObject<DirtyCache>;
  setDirty: (next: DirtyCache) => void;
}) {
  const queryClient = useQueryClient();
  const saveAction = useAction({
    action: async (sent: DirtyCache): Promise<boolean> => {
      const results = await pagesApi.batch(domain, portal, batchItems(sent));
      const applied = applyBatchResult(sent, results, dirtyRef.current);
      setDirty(applied.cache);
      for (const s of applied.saved) {
        const item = sent[dirtyKey(s.type, s.id)];
        if (s.type === 'WIDGET' && item)
          queryClient.setQueryData(designerWidgetKey(domain, portal, s.id), {
            instance: item.object,
            version: s.version,
          });
      }
      if (applied.failed.length) {
        toasts.show({
          type: 'DANGER',
          title: MSG.saveFailed,
          message: batchFailureMessage(applied.failed),
          timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
          closeButton: true,
        });
      } else toasts.success(MSG.saved);
      // The header's local changes and every other view of the workspace follow the save.
      void queryClient
        .invalidateQueries({
          predicate: (q) =>
            isWorkspaceQueryKey(q.queryKey, domain, portal) &&
            !isDesignerWidgetKey(q.queryKey) &&
            q.queryKey[3] !== FRAME_EPOCH,
        })
        .catch(() => undefined);
      return applied.failed.length === 0;
    },
    failure: MSG.saveFailed,
  });

  async function save(): Promise<boolean> {
    const sent = dirtyRef.current;
    if (!isDirty(sent)) return true;
    try {
      return await saveAction.submit(sent);
    } catch (failure) {
      if (!(failure instanceof ActionFailure)) return false; // a save runs already
      setDirty(failAll(dirtyRef.current, failure.error));
      toasts.show({
        type: 'DANGER',
        title: MSG.saveFailed,
        message: toApiError(failure.error).errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
      return false;
    }
  }

  return { save, saving: saveAction.pending };
}
