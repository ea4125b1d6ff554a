import { useCallback, useMemo } from 'react';
import type { KeyStatus, TranslationData } from '../../api/translations';
import {
  changedKeys,
  computeKeyStatus,
  filterKeys,
  hasUnsavedChanges,
  indexKeys,
  unionKeys,
  unsavedChanges,
  type KeyFilter,
} from './model';

/**
 * The keys of the draft as the key list shows them: every key, the ones the filter lets through,
 * each key's status in `language` (the server's, or computed for keys with unsaved edits) and
 * whether it has unsaved key changes.
 */
export function useDraftKeys({
  baseline,
  draft,
  filter,
  serverStatus,
  defaultLanguage,
  languages,
  language,
}: {
  baseline: TranslationData | undefined;
  draft: TranslationData | undefined;
  filter: KeyFilter;
  serverStatus: Record<string, KeyStatus> | undefined;
  defaultLanguage: string;
  languages: string[];
  language: string;
}) {
  const changes = useMemo(() => (baseline && draft ? unsavedChanges(baseline, draft) : null), [baseline, draft]);
  const dirty = !!changes && hasUnsavedChanges(changes);
  const dirtyKeys = useMemo(() => (changes ? changedKeys(changes) : new Set<string>()), [changes]);

  // The same array while the set of keys does not change (value edits keep it).
  const allKeys = useMemo(() => (draft ? unionKeys(draft) : []), [draft]);
  // The key list's search compares against lower-cased keys built once per key set.
  const index = useMemo(() => indexKeys(allKeys), [allKeys]);
  const existing = useMemo(() => new Set(allKeys), [allKeys]);

  const statusOf = useCallback(
    (key: string): KeyStatus | undefined => {
      if (!draft) return undefined;
      const server = serverStatus?.[key];
      if (server && !dirtyKeys.has(key)) return server;
      return computeKeyStatus(draft, defaultLanguage, languages, language, key);
    },
    [draft, serverStatus, dirtyKeys, defaultLanguage, languages, language],
  );
  const visibleKeys = useMemo(
    () => filterKeys(index, filter, (key) => statusOf(key)?.status),
    [index, filter, statusOf],
  );
  const isUnsaved = useCallback(
    (key: string) => !!changes?.keyChanges.has(key) && existing.has(key),
    [changes, existing],
  );
  return { dirty, allKeys, existing, statusOf, visibleKeys, isUnsaved };
}
