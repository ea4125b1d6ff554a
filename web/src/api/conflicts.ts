/**
 * Conflicts, discarded work and review (issue 21; /tmp contract "Issue 21 API contract"):
 *
 * - `workspace-conflicts/{d}/{p}`: the caller's local commits that cannot merge with the branch,
 *   per file and conflict; `…/file?path=` one file in full (with its schema text); `…/resolve`
 *   commits the choices (409 CONFLICT_TIP_MOVED when the branch moved on meanwhile).
 * - `workspace-discarded/{d}/{p}`: local commits and uncommitted changes a Reset or a branch
 *   override put aside (kept for the server's `limits.discardedWorkDays`, GET config/features);
 *   `…/{id}/restore` brings one back as uncommitted changes.
 * - `workspace-review/{d}/{p}`: what a commit will change (no parameter), another user's
 *   workspace (`user`) or a commit (`commit`): `…/files`, one file's diff (`?path=`) and an
 *   image's bytes (`…/raw`, fetched as a blob: it needs the bearer token).
 *
 * Every key lives under portalKeys.workspace(d, p), so Reload Now, revert, Reset, a branch
 * switch and a resolution refresh them (app/selection/workspaceRefresh.ts).
 */
import { api } from './client';
import { portalKeys, type ChangeType, type CommitResult, type Id, type WorkspaceStatus } from './portal';

export type FileKind = 'json' | 'translation' | 'text' | 'binary';

export interface Conflict {
  /** A JSON pointer ('/menu/2/title'), 'hunk:N' for text, 'file' for a whole-file conflict. */
  id: string;
  /** A human label ('menu › Lunch › title', 'lines 12–14', 'whole file'). */
  path: string;
  /** JSON kinds: compact JSON text; text: the lines; null: absent. */
  base: string | null;
  mine: string | null;
  theirs: string | null;
  reason?: string;
}

export type ChoiceTake = 'mine' | 'theirs' | 'base' | 'value';

export interface Choice {
  take: ChoiceTake;
  /** With take 'value': JSON text (json, translation) or raw text (a text hunk). */
  value?: string | null;
}

export interface ConflictFile {
  path: string;
  kind: FileKind;
  binary: boolean;
  hasSchema: boolean;
  conflicts: Conflict[];
}

export interface WorkspaceConflicts {
  inConflict: boolean;
  branch: string;
  /** The branch tip the conflicts were computed against: sent back with the resolution. */
  tip: string;
  files: ConflictFile[];
  /** Files both sides changed that merged automatically. */
  merged: string[];
}

export interface ConflictFileDetail {
  path: string;
  kind: FileKind;
  binary: boolean;
  base: string | null;
  mine: string | null;
  theirs: string | null;
  /** The text of `<path>.schema` on the branch, when there is one. */
  schema: string | null;
  conflicts: Conflict[];
}

/** path → conflict id → choice. */
export type Choices = Record<string, Record<string, Choice>>;

export interface ResolveRequest {
  tip: string;
  choices: Choices;
}

export type ResolveResult = CommitResult;

export const CONFLICT_TIP_MOVED = 'CONFLICT_TIP_MOVED';
export const CONFLICTS_UNRESOLVED = 'CONFLICTS_UNRESOLVED';
export const MERGE_INVALID = 'MERGE_INVALID';

export interface DiscardedWork {
  id: string;
  branch: string;
  /** ISO time. */
  time: string;
  message: string;
  commits: number;
  files: Record<string, ChangeType>;
}

export interface RestoreResult {
  restored: string[];
  /** Files where the discarded version replaced other authors' overlapping edits. */
  overlapping: string[];
  status: WorkspaceStatus;
}

export type FieldOp = 'add' | 'remove' | 'change' | 'move';

export interface FieldChange {
  pointer: string;
  path: string;
  op: FieldOp;
  /** Compact JSON text; null: absent. */
  old: string | null;
  new: string | null;
}

export interface HunkLine {
  op: ' ' | '+' | '-';
  text: string;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: HunkLine[];
}

export interface Diff {
  kind: FileKind;
  fields: FieldChange[];
  hunks: Hunk[];
  binary: boolean;
  truncated: boolean;
}

export interface ReviewFiles {
  files: Record<string, ChangeType>;
}

export interface FileReview {
  path: string;
  change: ChangeType;
  kind: FileKind;
  image: boolean;
  /** pages/*.html */
  page: boolean;
  diff: Diff;
  /** Texts; null for binary files, an absent side or more than 1 MB. */
  before: string | null;
  after: string | null;
  /** Set when the file's git mode changes ('100644' → '100755' or back). */
  modeChange?: { old: string; new: string };
}

/**
 * Whose changes a review shows: the caller's next commit ({}), another user's workspace
 * ({ user }) or a commit against its parent ({ commit }).
 */
export type ReviewSubject = { user?: Id; commit?: string };

export type ReviewSide = 'before' | 'after';

const seg = (v: Id) => encodeURIComponent(String(v));
const conflictsBase = (d: Id, p: Id) => `workspace-conflicts/${seg(d)}/${seg(p)}`;
const discardedBase = (d: Id, p: Id) => `workspace-discarded/${seg(d)}/${seg(p)}`;
const reviewBase = (d: Id, p: Id) => `workspace-review/${seg(d)}/${seg(p)}`;
const subjectQuery = (subject: ReviewSubject) => ({
  user: subject.user === undefined ? undefined : String(subject.user),
  commit: subject.commit,
});
/** A subject as a key part: '' (mine), 'user:8', 'commit:abc'. */
const subjectKey = (subject: ReviewSubject) =>
  subject.commit ? `commit:${subject.commit}` : subject.user !== undefined ? `user:${String(subject.user)}` : '';

export const conflictsApi = {
  conflicts: (d: Id, p: Id) => api.get<WorkspaceConflicts>(conflictsBase(d, p)),
  file: (d: Id, p: Id, path: string) => api.get<ConflictFileDetail>(`${conflictsBase(d, p)}/file`, { query: { path } }),
  resolve: (d: Id, p: Id, body: ResolveRequest) => api.post<ResolveResult>(`${conflictsBase(d, p)}/resolve`, body),

  discarded: (d: Id, p: Id) => api.get<DiscardedWork[]>(discardedBase(d, p)),
  restore: (d: Id, p: Id, id: string) => api.post<RestoreResult>(`${discardedBase(d, p)}/${seg(id)}/restore`),

  reviewFiles: (d: Id, p: Id, subject: ReviewSubject = {}) =>
    api.get<ReviewFiles>(`${reviewBase(d, p)}/files`, { query: subjectQuery(subject) }),
  review: (d: Id, p: Id, path: string, subject: ReviewSubject = {}) =>
    api.get<FileReview>(reviewBase(d, p), { query: { path, ...subjectQuery(subject) } }),
  /** An image's bytes (images only; 415 otherwise). */
  raw: (d: Id, p: Id, path: string, side: ReviewSide, subject: ReviewSubject = {}) =>
    api.get<Blob>(`${reviewBase(d, p)}/raw`, {
      query: { path, side, ...subjectQuery(subject) },
      responseType: 'blob',
    }),
};

export const conflictKeys = {
  conflicts: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'conflicts'] as const,
  file: (d: Id, p: Id, path: string) => [...portalKeys.workspace(d, p), 'conflicts', 'file', path] as const,
  discarded: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'discarded'] as const,
  reviewFiles: (d: Id, p: Id, subject: ReviewSubject = {}) =>
    [...portalKeys.workspace(d, p), 'review', subjectKey(subject), 'files'] as const,
  review: (d: Id, p: Id, path: string, subject: ReviewSubject = {}) =>
    [...portalKeys.workspace(d, p), 'review', subjectKey(subject), 'file', path] as const,
  raw: (d: Id, p: Id, path: string, side: ReviewSide, subject: ReviewSubject = {}) =>
    [...portalKeys.workspace(d, p), 'review', subjectKey(subject), 'raw', path, side] as const,
};
