/**
 * Merging an unsaved edit into the current file (issue 21, "Editors: merge an unsaved edit";
 * POST /workspace-merge/{d}/{p}). An editor whose save was refused with 409 FILE_CHANGED sends
 * the text its edit started from (`base`) and its own text (`mine`); the server merges them with
 * the file as it is now (`theirs`) field by field (JSON, translations) or hunk by hunk (text).
 * With `unresolved === 0` the answer's `merged` text is saved with `version`; otherwise the
 * overlapping `conflicts` are chosen one by one and sent again as `choices`.
 */
import { api } from './client';
import type { Id } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type MergeKind = 'json' | 'translation' | 'text' | 'binary';

/** One overlapping change. Values are compact JSON texts (json kinds) or lines (text); null = absent. */
export type MergeConflict = gen.MergeConflict;

export type MergeChoice = Narrow<gen.MergeChoice, { take: 'mine' | 'theirs' | 'base' | 'value' }>;

export type MergeRequest = Narrow<Required<gen.CollabMergeBody>, { choices?: Record<string, MergeChoice> }>;

export type MergeResult = Narrow<gen.EditingEditMerge, { kind: MergeKind }>;

const seg = (v: Id) => encodeURIComponent(String(v));

/** A workspace path as the issue-21 calls take it: no leading slash ('/css/a.css' → 'css/a.css'). */
export const workspacePath = (path: string) => path.replace(/^\/+/, '');

export const mergeApi = {
  merge: async (d: Id, p: Id, body: MergeRequest): Promise<MergeResult> => {
    const result = await api.post<MergeResult>(`workspace-merge/${seg(d)}/${seg(p)}`, {
      ...body,
      path: workspacePath(body.path),
    });
    // A merge without conflicts may answer null for the list.
    return { ...result, conflicts: result.conflicts ?? [] };
  },
};
