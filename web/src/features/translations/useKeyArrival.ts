import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { TranslationLayout } from '../../api/translations';
import type { KeyFilter } from './model';
import { keyIdentity } from './useKeyFindings';

/**
 * Arrival at a key (`?key=<KEY>&language=<lang>`, the Readiness screen's "Open"): once the
 * translations are loaded the language is selected (as the picker would: unsaved changes are
 * asked about first) and the key with it, the list's filters cleared so that it shows. Each
 * pair of parameters is honoured once; a later "Open" with others is honoured again.
 */
export function useKeyArrival(
  ready: boolean,
  {
    languages,
    allKeys,
    layout,
  }: { languages: readonly string[]; allKeys: readonly string[]; layout?: TranslationLayout },
  actions: {
    switchLanguage: (language: string) => unknown;
    setSelectedKey: (key: string) => void;
    setFilter: (filter: KeyFilter) => void;
  },
) {
  const [params] = useSearchParams();
  const wantKey = params.get('key');
  const wantLanguage = params.get('language');
  const done = useRef<string | null>(null);
  const apply = useRef(actions);
  apply.current = actions;

  useEffect(() => {
    if (!ready || (!wantKey && !wantLanguage)) return;
    const target = `${wantLanguage ?? ''}\n${wantKey ?? ''}`;
    if (done.current === target) return;
    done.current = target;
    if (wantLanguage && languages.includes(wantLanguage)) apply.current.switchLanguage(wantLanguage);
    if (!wantKey) return;
    const id = keyIdentity(wantKey, layout);
    const match = allKeys.find((k) => k === wantKey) ?? allKeys.find((k) => keyIdentity(k, layout) === id);
    if (!match) return;
    apply.current.setFilter({ search: '', type: '', status: '' });
    apply.current.setSelectedKey(match);
  }, [ready, wantKey, wantLanguage, languages, allKeys, layout]);
}
