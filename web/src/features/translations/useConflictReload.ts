import { useQueryClient } from '@tanstack/react-query';
import { toApiError } from '../../api/errors';
import { getTranslations, translationKeys, type Translations } from '../../api/translations';
import { toasts } from '../../core/toastService';
import { ActionFailure, useAction } from '../../ui/useAction';
import { TRANSLATION_MESSAGES as MSG } from './messages';

/**
 * After a save refused for a stale version: loads every language file again and hands it to
 * `onFresh` with the user's choice (`reapply`: keep the user's changes on top of it). A failure
 * is a danger toast naming `language`.
 */
export function useConflictReload(
  domain: string,
  portal: string,
  language: string,
  onFresh: (fresh: Translations, reapply: boolean) => void,
) {
  const queryClient = useQueryClient();
  const reload = useAction({
    action: (reapply: boolean) =>
      queryClient
        .fetchQuery({
          queryKey: translationKeys.data(domain, portal),
          queryFn: () => getTranslations(domain, portal),
          staleTime: 0,
        })
        .then((fresh) => ({ fresh, reapply })),
    failure: MSG.loadFailed(language),
    onSuccess: ({ fresh, reapply }) => onFresh(fresh, reapply),
  });

  function reloadAfterConflict(reapply: boolean) {
    reload.submit(reapply).catch((failure: unknown) => {
      if (!(failure instanceof ActionFailure)) return;
      toasts.show({ type: 'DANGER', title: MSG.loadFailed(language), message: toApiError(failure.error).errorMessage });
    });
  }

  return { reload: reloadAfterConflict, reloading: reload.pending };
}
