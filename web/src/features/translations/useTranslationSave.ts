/**
 * Saving every language at once (PUT with the versions read) for the translation manager and the
 * translation selector. Success: the success toast, the query's data and versions follow, and the
 * workspace's queries are refreshed (the header's local changes count, the statuses). A stale
 * version (409 FILE_CHANGED) answers `conflict` so the caller offers the conflict dialog; any
 * other failure is a danger toast "Could not save translation data for language '{lang}'".
 */
import { useQueryClient } from '@tanstack/react-query';
import type { Id } from '../../api/portal';
import { saveFailureMessage, toApiError } from '../../api/errors';
import {
  isFileChanged,
  saveTranslations,
  translationKeys,
  type TranslationData,
  type Translations,
  type TranslationVersions,
} from '../../api/translations';
import { isWorkspaceQueryKey } from '../../core/workspaceRefresh';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { useAction } from '../../ui/useAction';
import { TRANSLATION_MESSAGES } from './messages';

interface SaveRequest {
  data: TranslationData;
  versions: TranslationVersions;
  language: string;
}

export type SaveOutcome = { ok: true; versions: TranslationVersions } | { ok: false; conflict: boolean };

/** The language a failure names: the file in the error's data ('translations/fr_FR.json'), else `fallback`. */
export function failedLanguage(error: unknown, fallback: string): string {
  const data = toApiError(error).data as { path?: unknown; language?: unknown } | null;
  if (data && typeof data.language === 'string' && data.language) return data.language;
  if (data && typeof data.path === 'string') {
    const match = /([^/]+)\.json$/.exec(data.path);
    if (match) return match[1];
  }
  return fallback;
}

export function useTranslationSave(domain: Id, portal: Id) {
  const queryClient = useQueryClient();
  const action = useAction({
    action: ({ data, versions, language }: SaveRequest) => send(data, versions, language),
    failure: ({ language }) => TRANSLATION_MESSAGES.saveFailed(language),
  });

  /** Saves `data` (every language) with `versions`; `language` names the failure toast. */
  async function save(data: TranslationData, versions: TranslationVersions, language: string): Promise<SaveOutcome> {
    // A second save while one runs sends nothing (ActionBusyError); a failure is told by send().
    return action.submit({ data, versions, language }).catch(() => ({ ok: false, conflict: false }) as const);
  }

  async function send(data: TranslationData, versions: TranslationVersions, language: string): Promise<SaveOutcome> {
    try {
      const answer = await saveTranslations(domain, portal, { data, versions });
      const nextVersions = { ...versions, ...(answer?.versions ?? {}) };
      queryClient.setQueryData<Translations>(translationKeys.data(domain, portal), (old) =>
        old ? { ...old, data, versions: nextVersions } : old,
      );
      toasts.success(TRANSLATION_MESSAGES.saved);
      // Local changes, statuses and every other view of the workspace follow the save.
      void queryClient
        .invalidateQueries({
          predicate: (q) =>
            isWorkspaceQueryKey(q.queryKey, domain, portal) &&
            JSON.stringify(q.queryKey) !== JSON.stringify(translationKeys.data(domain, portal)),
        })
        .catch(() => undefined);
      return { ok: true, versions: nextVersions };
    } catch (error) {
      if (isFileChanged(error)) return { ok: false, conflict: true };
      toasts.show({
        type: 'DANGER',
        title: TRANSLATION_MESSAGES.saveFailed(failedLanguage(error, language)),
        message: saveFailureMessage(error),
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
      return { ok: false, conflict: false };
    }
  }

  return { save, saving: action.pending };
}
