/** The whitelist screen's rules, as pure functions (validation of a new URL, the draft, conflicts). */
import { MAX_WHITELIST_URL_LENGTH, urlOrigin, type CheckedUrl, type Whitelist } from '../../api/whitelist';
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

/** The file the whitelist screen edits (issue 21 presence). */
export const WHITELIST_FILE = 'whitelist.json';

/** The URLs of a whitelist, in its order. */
export const urlsOf = (w: Whitelist): string[] => w.whitelist.map((e) => e.url);

/** The draft with the URLs added that it lacks (each once, in the order given); the same draft when none is new. */
export function withUrls(draft: string[], urls: readonly string[]): string[] {
  const fresh = urls.filter((u, i) => !draft.includes(u) && urls.indexOf(u) === i);
  return fresh.length ? [...draft, ...fresh] : draft;
}

/** The draft without a URL. */
export const withoutUrl = (draft: readonly string[], url: string): string[] => draft.filter((u) => u !== url);

/** How many usages of a URL the check lists before 'and N more'. */
export const USAGES_SHOWN = 3;

export interface BlockedOrigin {
  origin: string;
  count: number;
}

/** The origins of the URLs not allowed, most URLs first. */
export function blockedOrigins(urls: readonly CheckedUrl[]): BlockedOrigin[] {
  const counts = new Map<string, number>();
  for (const u of urls) {
    if (u.allowed) continue;
    const origin = urlOrigin(u.url);
    if (origin) counts.set(origin, (counts.get(origin) ?? 0) + 1);
  }
  return [...counts]
    .map(([origin, count]) => ({ origin, count }))
    .sort((a, b) => b.count - a.count || a.origin.localeCompare(b.origin));
}

/** The blocked origins not yet in the draft. */
export const pendingOrigins = (blocked: readonly BlockedOrigin[], draft: readonly string[]): BlockedOrigin[] =>
  blocked.filter((o) => !draft.includes(o.origin));

/** The selected origins that can still be added. */
export const chosenOrigins = (selected: readonly string[], pending: readonly BlockedOrigin[]): string[] =>
  selected.filter((o) => pending.some((p) => p.origin === o));

/** The selection with an origin ticked (moved last) or unticked. */
export const toggledOrigin = (selected: readonly string[], origin: string, on: boolean): string[] =>
  on ? [...selected.filter((o) => o !== origin), origin] : selected.filter((o) => o !== origin);
