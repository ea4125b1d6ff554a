import { useCallback, useMemo } from 'react';
import type { Id } from '../../api/portal';
import type { Finding } from '../../api/readiness';
import type { TranslationLayout } from '../../api/translations';
import { useWorkspaceReadiness } from '../readiness';

/** The rules the key list marks beside the status icon (the status already shows missing values). */
export const MARKED_RULES: ReadonlySet<string> = new Set([
  'translation.placeholder',
  'translation.markup',
  'translation.length',
]);

/**
 * The form a key is compared in: the product's flat keys are stored upper case and shown lower
 * case (the server names them upper case), nested keys are compared as written.
 */
export const keyIdentity = (key: string, layout: TranslationLayout | undefined) =>
  layout === 'nested' ? key : key.toUpperCase();

/** The findings of `language` by key (in keyIdentity form): a finding of that language, or of its file. */
export function findingsByKey(
  findings: readonly Finding[],
  language: string,
  file: string | null,
  layout: TranslationLayout | undefined,
): Map<string, Finding[]> {
  const out = new Map<string, Finding[]>();
  for (const f of findings) {
    if (!f.key) continue;
    if (f.language ? f.language !== language : f.path !== file) continue;
    const id = keyIdentity(f.key, layout);
    const list = out.get(id);
    if (list) list.push(f);
    else out.set(id, [f]);
  }
  return out;
}

/**
 * The caller's readiness findings of the selected language's keys (issue 29): `markedOf` for
 * the key list's mark (placeholder, markup and length), `findingsOf` for the editor's list.
 */
export function useKeyFindings(
  domain: Id,
  portal: Id,
  language: string,
  file: string | null,
  layout: TranslationLayout | undefined,
) {
  const report = useWorkspaceReadiness(domain, portal, !!language);
  const byKey = useMemo(
    () => findingsByKey(report.data?.findings ?? [], language, file?.replace(/^\/+/, '') ?? null, layout),
    [report.data, language, file, layout],
  );
  const findingsOf = useCallback((key: string) => byKey.get(keyIdentity(key, layout)) ?? NONE, [byKey, layout]);
  const markedOf = useCallback(
    (key: string) => {
      const list = byKey.get(keyIdentity(key, layout));
      return list ? list.filter((f) => MARKED_RULES.has(f.rule)) : NONE;
    },
    [byKey, layout],
  );
  return { findingsOf, markedOf };
}

const NONE: Finding[] = [];
