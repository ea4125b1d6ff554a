/**
 * The design surface's dirty cache (spec 2 §3 "Dirty object", "Batch save item"; §4): edited
 * pages and widgets, saved in one batch. After a save, items without an error are marked clean and
 * removed; items with an error stay and keep it.
 */
import type { BatchItem, BatchResult } from '../../api/pages';

export type DirtyType = 'PAGE' | 'WIDGET';

export interface DirtyError {
  errorCode?: string;
  errorTitle?: string;
  errorMessage: string;
  httpStatus?: number;
}

export interface DirtyObject {
  type: DirtyType;
  /** The page id or the widget id. */
  id: string;
  /** A page's HTML, or a widget's whole instance {type, data, mediaQueries?}. */
  object: unknown;
  /** The version of the file the edit started from ('' for a new file). */
  version: string;
  error: DirtyError | null;
}

export type DirtyCache = Record<string, DirtyObject>;

export const dirtyKey = (type: DirtyType, id: string) => `${type}:${id}`;

/** The cache with `object` as the latest edit of (type, id); a previous error is cleared. */
export function markDirty(
  cache: DirtyCache,
  type: DirtyType,
  id: string,
  object: unknown,
  version: string,
): DirtyCache {
  const key = dirtyKey(type, id);
  const previous = cache[key];
  return { ...cache, [key]: { type, id, object, version: previous?.version ?? version, error: null } };
}

export const dirtyItems = (cache: DirtyCache): DirtyObject[] => Object.values(cache);
export const isDirty = (cache: DirtyCache) => Object.keys(cache).length > 0;

/** One batch item per dirty object, in the cache's order. */
export function batchItems(cache: DirtyCache): BatchItem[] {
  return dirtyItems(cache).map((item) => ({
    file: item.id,
    type: item.type === 'PAGE' ? 'page' : 'widget',
    data: item.object,
    version: item.version,
  }));
}

export interface AppliedBatch {
  cache: DirtyCache;
  /** Saved items with their new versions. */
  saved: { type: DirtyType; id: string; version: string }[];
  failed: DirtyObject[];
}

function toDirtyError(error: unknown): DirtyError {
  const e = (error && typeof error === 'object' ? error : {}) as Record<string, unknown>;
  return {
    errorCode:
      typeof e.errorCode === 'string' ? e.errorCode : typeof e.errorCodeDesc === 'string' ? e.errorCodeDesc : undefined,
    errorTitle: typeof e.errorTitle === 'string' ? e.errorTitle : undefined,
    errorMessage: typeof e.errorMessage === 'string' && e.errorMessage ? e.errorMessage : 'An unknown error occurred',
    httpStatus: typeof e.httpStatus === 'number' ? e.httpStatus : undefined,
  };
}

/**
 * Applies the batch answer (in the items' order) to the cache the items were built from.
 * `current` is the cache now: an object edited again while the save ran stays dirty (with the
 * new version, so its next save does not meet a conflict).
 */
export function applyBatchResult(sent: DirtyCache, results: BatchResult[], current: DirtyCache = sent): AppliedBatch {
  const items = dirtyItems(sent);
  const next: DirtyCache = { ...current };
  const saved: AppliedBatch['saved'] = [];
  const failed: DirtyObject[] = [];
  items.forEach((item, index) => {
    const key = dirtyKey(item.type, item.id);
    const result = results[index] ?? results.find((r) => r.file === item.id);
    const now = current[key];
    if (result && !result.error) {
      const version = result.version ?? item.version;
      saved.push({ type: item.type, id: item.id, version });
      if (now && now.object !== item.object) next[key] = { ...now, version, error: null };
      else delete next[key];
      return;
    }
    const error = toDirtyError(result?.error ?? { errorMessage: 'No answer for this item' });
    const kept = { ...(now ?? item), error };
    next[key] = kept;
    failed.push(kept);
  });
  return { cache: next, saved, failed };
}

/** Every item marked with the same error (the whole call failed). */
export function failAll(cache: DirtyCache, error: unknown): DirtyCache {
  const e = toDirtyError(error);
  return Object.fromEntries(Object.entries(cache).map(([k, v]) => [k, { ...v, error: e }]));
}
