/**
 * Release readiness (issue 29; docs/readiness.md): one check over links, assets, translations,
 * content and sizes. The server runs the engine (internal/check) over the caller's workspace
 * (kept incrementally: a save re-reads only what changed) or over a commit (cached by id).
 * The portal room `portal-<id>` announces each user's new state with title
 * 'READINESS_CHANGED' (ReadinessMessage).
 */
import { api } from './client';
import { portalKeys, type Id } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type Severity = 'error' | 'warning' | 'info';

/** Rule ids, as the server names them (internal/check/check.go). */
export const RULES = [
  'link.page-missing',
  'page.missing-file',
  'asset.missing',
  'widget.missing',
  'translation.missing',
  'translation.unknown-key',
  'translation.unused',
  'translation.placeholder',
  'translation.markup',
  'translation.length',
  'page.img-alt',
  'content.syntax',
  'content.schema',
  'whitelist.not-allowed',
  'size.budget',
] as const;
export type RuleId = (typeof RULES)[number];

export type Finding = Narrow<gen.CheckFinding, { rule: RuleId | string; severity: Severity }>;

export type IgnoredFinding = Narrow<gen.CheckIgnoredFinding, { rule: RuleId | string; severity: Severity }>;

export type ReadinessSummary = gen.CheckSummary;

/** A check's result: of the caller's workspace, or of one commit. */
export type ReadinessReport = Narrow<
  gen.ReadinessReport,
  { source: 'workspace' | 'commit'; findings: Finding[]; ignored: IgnoredFinding[] }
>;

export type ReadinessPerson = gen.EditingPerson;

/** Another author's findings in the files they changed and have not committed. */
export type OthersReadiness = Narrow<gen.ReadinessOthers, { findings: Finding[] }>;

/** The data of a READINESS_CHANGED room message: a user's workspace was checked again. */
export interface ReadinessMessage {
  domainId: Id;
  portalId: Id;
  user: ReadinessPerson;
  branch: string;
  summary: ReadinessSummary;
  /** Findings this change introduced (were not there before it). */
  added: Finding[];
  /** Findings this change resolved. */
  removed: Finding[];
  /** That user's findings in the files they changed and have not committed. */
  findings: Finding[];
}

export type LengthBudget = gen.CheckLengthBudget;

/** The readiness settings: the approval gate (database, per portal) and the budgets (readiness.json). */
export type ReadinessSettings = gen.ReadinessSettings;

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `readiness/${seg(d)}/${seg(p)}`;

export const readinessApi = {
  /** The caller's workspace (path: only that file's findings, for an editor's marks). */
  workspace: (d: Id, p: Id, path?: string) =>
    api.get<ReadinessReport>(base(d, p), { query: path ? { path } : undefined }),
  /** One commit (a loadable's, the approval screen's); cached by the server. */
  commit: (d: Id, p: Id, commitId: string) => api.get<ReadinessReport>(`${base(d, p)}/commit/${seg(commitId)}`),
  /** Other authors' uncommitted findings on the portal. */
  others: (d: Id, p: Id) => api.get<OthersReadiness[]>(`${base(d, p)}/others`),
  /** Ignore a finding with a reason (an uncommitted change to readiness.json). */
  ignore: (d: Id, p: Id, findingId: string, reason: string) =>
    api.post<ReadinessReport>(`${base(d, p)}/ignore`, { findingId, reason }),
  /** Undo an ignore. */
  unignore: (d: Id, p: Id, findingId: string) => api.delete<ReadinessReport>(`${base(d, p)}/ignore/${seg(findingId)}`),
  settings: (d: Id, p: Id) => api.get<ReadinessSettings>(`${base(d, p)}/settings`),
  saveSettings: (d: Id, p: Id, s: ReadinessSettings) => api.put<ReadinessSettings>(`${base(d, p)}/settings`, s),
};

export const readinessKeys = {
  /** Under the workspace key: Reload Now, revert, reset and branch switches refresh it. */
  all: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'readiness'] as const,
  workspace: (d: Id, p: Id) => [...readinessKeys.all(d, p), 'workspace'] as const,
  /** Every file's findings (prefix of `file`). */
  files: (d: Id, p: Id) => [...readinessKeys.all(d, p), 'file'] as const,
  file: (d: Id, p: Id, path: string) => [...readinessKeys.files(d, p), path] as const,
  others: (d: Id, p: Id) => [...readinessKeys.all(d, p), 'others'] as const,
  settings: (d: Id, p: Id) => [...readinessKeys.all(d, p), 'settings'] as const,
  /** A commit's report never changes: not under the workspace key. */
  commit: (d: Id, p: Id, commitId: string) => ['readiness-commit', String(d), String(p), commitId] as const,
};
