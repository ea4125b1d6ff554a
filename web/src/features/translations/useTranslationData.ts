import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toApiError } from '../../api/errors';
import type { Id } from '../../api/portal';
import { getTranslations, translationKeys, type TranslationLayout, type Translations } from '../../api/translations';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { TRANSLATION_MESSAGES as MSG } from './messages';

/**
 * Every language's translation data of the caller's workspace (one query, shared by the
 * manager and every selector), with the spec's danger toast once per failed load.
 */
export function useTranslationData(domain: Id, portal: Id, language: string) {
  const query = useQuery({
    queryKey: translationKeys.data(domain, portal),
    queryFn: () => getTranslations(domain, portal),
  });
  const failed = query.isError;
  useEffect(() => {
    if (failed)
      toasts.show({
        type: 'DANGER',
        title: MSG.loadFailed(language),
        message: toApiError(query.error).errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
    // once per failure, in the language it was asked for
  }, [failed]);
  return query;
}

/**
 * The layout of the portal's translation files as last read (the data query, which this only
 * watches: it never fetches), 'flat' until known. Lets the value editor and the Add key dialog
 * follow a nested portal wherever they are shown.
 */
export function useTranslationLayout(domain: Id, portal: Id): TranslationLayout {
  const query = useQuery({
    queryKey: translationKeys.data(domain, portal),
    queryFn: () => getTranslations(domain, portal),
    enabled: false,
    select: (t: Translations) => t.layout,
  });
  return query.data === 'nested' ? 'nested' : 'flat';
}
