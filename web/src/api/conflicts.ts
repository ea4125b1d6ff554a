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
 * switch and a resolution refresh them (core/workspaceRefresh.ts).
 */
import { api } from './client';
import { portalKeys, type ChangeType, type CommitResult, type Id, type WorkspaceStatus } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type FileKind = 'json' | 'translation' | 'text' | 'binary';

export type Conflict = gen.MergeConflict;

export type ChoiceTake = 'mine' | 'theirs' | 'base' | 'value';

export type Choice = Narrow<gen.MergeChoice, { take: ChoiceTake }>;

export type ConflictFile = Narrow<gen.WorkspaceConflictFile, { kind: FileKind }>;

export type WorkspaceConflicts = Narrow<gen.WorkspaceConflictState, { files: ConflictFile[] }>;

export type ConflictFileDetail = Narrow<gen.EditingConflictFile, { kind: FileKind }>;

/** path → conflict id → choice. */
export type Choices = Record<string, Record<string, Choice>>;

export type ResolveRequest = Narrow<gen.CollabResolveBody, { choices: Choices }>;

export type ResolveResult = CommitResult;

export const CONFLICT_TIP_MOVED = 'CONFLICT_TIP_MOVED';
export const CONFLICTS_UNRESOLVED = 'CONFLICTS_UNRESOLVED';
export const MERGE_INVALID = 'MERGE_INVALID';

export type DiscardedWork = Narrow<gen.WorkspaceDiscarded, { files: Record<string, ChangeType> }>;

export type RestoreResult = Narrow<gen.WorkspaceRestored, { status: WorkspaceStatus }>;

export type FieldOp = 'add' | 'remove' | 'change' | 'move';

export type FieldChange = Narrow<gen.MergeFieldChange, { op: FieldOp }>;

export type HunkLine = Narrow<gen.MergeDiffLine, { op: ' ' | '+' | '-' }>;

export type Hunk = Narrow<gen.MergeHunk, { lines: HunkLine[] }>;

export type Diff = Narrow<gen.MergeDiff, { kind: FileKind; fields: FieldChange[]; hunks: Hunk[] }>;

export type ReviewFiles = Narrow<gen.CollabReviewFiles, { files: Record<string, ChangeType> }>;

export type FileReview = Narrow<gen.EditingReview, { change: ChangeType; kind: FileKind; diff: Diff }>;

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
