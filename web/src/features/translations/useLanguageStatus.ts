import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getLanguage, getTranslationStatus, languageDirection, translationKeys } from '../../api/translations';
import { toasts } from '../../core/toastService';
import { TRANSLATION_MESSAGES as MSG } from './messages';

/**
 * What the server says about the language shown: its keys' statuses (a danger toast when they
 * cannot be read) and its writing direction (a warning when the language cannot be read).
 */
export function useLanguageStatus(
  domain: string,
  portal: string,
  language: string,
  defaultLanguage: string,
  statusEnabled: boolean,
) {
  const statusQuery = useQuery({
    queryKey: translationKeys.status(domain, portal, language),
    queryFn: () => getTranslationStatus(domain, portal, language),
    enabled: statusEnabled,
    retry: false,
  });
  const statusFailed = statusQuery.isError;
  useEffect(() => {
    if (statusFailed) toasts.danger(MSG.statusFailed, undefined, { closeButton: true });
  }, [statusFailed]);

  const languageQuery = useQuery({
    queryKey: translationKeys.language(language),
    queryFn: () => getLanguage(language),
    enabled: !!language,
    staleTime: Infinity,
    retry: false,
  });
  const languageFailed = languageQuery.isError;
  useEffect(() => {
    if (languageFailed) toasts.warning(MSG.languageFailed(language));
  }, [languageFailed]);

  return {
    serverStatus: statusQuery.data?.keys,
    dir: languageDirection(language, languageQuery.data),
    defaultDir: languageDirection(defaultLanguage),
  };
}
