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

export type MergeKind = 'json' | 'translation' | 'text' | 'binary';

/** One overlapping change. Values are compact JSON texts (json kinds) or lines (text); null = absent. */
export interface MergeConflict {
  /** A JSON pointer ('/menu/2/title'), 'hunk:N' for text, 'file' for the whole file. */
  id: string;
  /** A human label ('menu › Lunch › title', 'lines 12–14', 'whole file'). */
  path: string;
  base: string | null;
  mine: string | null;
  theirs: string | null;
  reason?: string;
}

export interface MergeChoice {
  take: 'mine' | 'theirs' | 'base' | 'value';
  /** With take 'value': JSON text (json / translation) or raw text (a text hunk). */
  value?: string | null;
}

export interface MergeRequest {
  /** Workspace-relative, without a leading slash ('translations/en_GB.json'). */
  path: string;
  /** The text the editor loaded. */
  base: string;
  /** The editor's text. */
  mine: string;
  choices?: Record<string, MergeChoice>;
}

export interface MergeResult {
  kind: MergeKind;
  /** null while unresolved > 0. */
  merged: string | null;
  /** The file as it is now. */
  theirs: string;
  /** The file's current version: the merged text is saved with it. */
  version: string;
  conflicts: MergeConflict[];
  unresolved: number;
}

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
