/**
 * A portal branch's recent commits from the canonical repository (docs/api.md
 * `GET /portal/{d}/{p}/commits`): the portal dashboard's "Recent commits". The key lives under
 * portalKeys.workspace(d, p), so a revert, reset or branch switch refreshes it
 * (core/workspaceRefresh.ts).
 */
import { api } from './client';
import { branchToUrl, portalKeys, type ChangeType, type Id } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type CommitFile = Narrow<gen.GitlogHistoryFile, { change: ChangeType }>;

export type BranchCommit = Narrow<gen.GitlogHistoryCommit, { files: CommitFile[] }>;

export const RECENT_COMMITS_LIMIT = 20;

const seg = (v: Id) => encodeURIComponent(String(v));

export const commitsApi = {
  recent: (d: Id, p: Id, branch: string, limit = RECENT_COMMITS_LIMIT) =>
    api.get<BranchCommit[]>(`portal/${seg(d)}/${seg(p)}/commits`, {
      query: { branch: branchToUrl(branch), limit },
    }),
};

export const commitKeys = {
  recent: (d: Id, p: Id, branch: string) => [...portalKeys.workspace(d, p), 'commits', branch] as const,
};
