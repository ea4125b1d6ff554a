/** The whitelist screen's rules, as pure functions (validation of a new URL, the draft, conflicts). */
import { MAX_WHITELIST_URL_LENGTH } from '../../api/whitelist';
import { url as urlRule } from '../../lib/validation';
import { WHITELIST_MESSAGES as MSG } from './messages';

/** The message for a URL about to be added (trimmed first), or null when it may be added. */
export function newUrlError(value: string, draft: readonly string[]): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return MSG.invalidUrl;
  if (trimmed.length > MAX_WHITELIST_URL_LENGTH) return MSG.tooLong(MAX_WHITELIST_URL_LENGTH);
  if (urlRule(trimmed) !== null || /["<>\\]/.test(trimmed)) return MSG.invalidUrl;
  if (draft.includes(trimmed)) return MSG.duplicate;
  return null;
}

/** Whether the draft differs from what was loaded (order counts: it is what is saved). */
export function isDirty(baseline: readonly string[], draft: readonly string[]): boolean {
  return baseline.length !== draft.length || baseline.some((u, i) => u !== draft[i]);
}

/**
 * The user's edit on top of a whitelist reloaded after a conflict: the fresh list without what
 * the user removed, then what the user added.
 */
export function reapply(fresh: readonly string[], baseline: readonly string[], draft: readonly string[]): string[] {
  const removed = new Set(baseline.filter((u) => !draft.includes(u)));
  const added = draft.filter((u) => !baseline.includes(u));
  const out = fresh.filter((u) => !removed.has(u));
  for (const u of added) if (!out.includes(u)) out.push(u);
  return out;
}
