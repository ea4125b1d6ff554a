/**
 * The history of one value (issue 33, docs/api.md "Value history"): a translation key, a JSON
 * pointer in a file, a page's file; its restore; the blame of a file.
 */
import { api } from './client';
import type { Hunk } from './conflicts';
import { portalKeys, type Id } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

/** Who changed a value and when: a commit, or the author's uncommitted work (no commit, no time). */
export type ChangeInfo = Pick<
  gen.ValuehistoryEntry,
  'commit' | 'uncommitted' | 'author' | 'email' | 'time' | 'message'
>;

/** One change of the value; old and new are JSON text (null: absent). */
export type ValueChange = Narrow<gen.ValuehistoryEntry, { diff?: Hunk[] }>;

export type ValueHistory = Narrow<gen.ValuehistoryHistory, { entries: ValueChange[] }>;

export type BlameRow = gen.ValuehistoryRow;

export type Blame = gen.ValuehistoryBlame;

export type Restored = gen.ValuehistoryRestored;

/** What a history is of. */
export type ValueSubject =
  | { kind: 'translation'; key: string; lang?: string }
  | { kind: 'file'; path: string; pointer: string }
  | { kind: 'page'; page: string };

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `history/${seg(d)}/${seg(p)}`;

export const valueHistoryApi = {
  history: (d: Id, p: Id, s: ValueSubject) => {
    switch (s.kind) {
      case 'translation':
        return api.get<ValueHistory>(`${base(d, p)}/translation`, { query: { key: s.key, lang: s.lang } });
      case 'file':
        return api.get<ValueHistory>(`${base(d, p)}/file`, { query: { path: s.path, pointer: s.pointer } });
      case 'page':
        return api.get<ValueHistory>(`${base(d, p)}/page/${seg(s.page)}`);
    }
  },
  /** Puts the value back as it was after commit (a translation: in the language lang). */
  restore: (d: Id, p: Id, s: ValueSubject, commit: string, lang?: string) => {
    switch (s.kind) {
      case 'translation':
        return api.post<Restored>(`${base(d, p)}/translation/restore`, { key: s.key, lang: lang ?? s.lang, commit });
      case 'file':
        return api.post<Restored>(`${base(d, p)}/file/restore`, { path: s.path, pointer: s.pointer, commit });
      case 'page':
        return api.post<Restored>(`${base(d, p)}/page/${seg(s.page)}/restore`, { commit });
    }
  },
  translationBlame: (d: Id, p: Id, lang: string) =>
    api.get<Blame>(`${base(d, p)}/translation/blame`, { query: { lang } }),
  fileBlame: (d: Id, p: Id, path: string) => api.get<Blame>(`${base(d, p)}/file/blame`, { query: { path } }),
};

export const valueHistoryKeys = {
  all: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'value-history'] as const,
  history: (d: Id, p: Id, s: ValueSubject) => [...valueHistoryKeys.all(d, p), s] as const,
  blame: (d: Id, p: Id, kind: 'translation' | 'file', of: string) =>
    [...valueHistoryKeys.all(d, p), 'blame', kind, of] as const,
};
