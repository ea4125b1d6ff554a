/**
 * Portal calls (spec 3 §7; docs/api.md "Routes"): portals, categories, templates, branches,
 * settings and the caller's workspace (open, local changes, commit, revert, reset, other
 * users' changes). Every call goes through the one HTTP client. Branch names travel in URLs
 * with ':' for '/' (spec 1 §2.1).
 *
 * Whole files of the workspace (portal settings, probe settings) are read with their version
 * and written with it (client.ts "Versioned files"): a save based on an old version answers
 * 409 FILE_CHANGED instead of overwriting what a reload, revert, reset or branch switch put
 * there.
 */
import { api, type Versioned } from './client';
import type { CommitMessageRule } from '../lib/validation';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type { Versioned } from './client';

export type Id = string | number;
export type PortalType = 'CREW' | 'PASSENGER';
export type PortalScope = 'FULL' | 'MICROSITE' | 'CAPTIVE';
export type EngineType = 'UNIVERSAL' | 'JS_ENGINE' | 'PORTAL_ENGINE' | 'UNKNOWN';
export type SupportLevel = 'FULL' | 'LIMITED';
export type LanguageMode = 'MULTILANGUAGE' | 'SINGLE_LANGUAGE' | 'TRANSLATION';
export type ChangeType = 'ADD' | 'MODIFY' | 'DELETE';

export type Portal = Narrow<gen.PortalPortal, { type: PortalType; scope: PortalScope }>;

/** A category of the portal selector; inactive portals come under 'Inactive Portals'. */
export type Category = Narrow<gen.PortalCategory, { children: Portal[] }>;

export const INACTIVE_GROUP = 'Inactive Portals';

export type Template = Narrow<gen.PortalTemplate, { engineType?: EngineType }>;

export type LanguageSettings = Narrow<gen.EditingLanguageSettings, { languageMode: LanguageMode }>;

export type TaskRunnerSettings = gen.EditingTaskRunnerSettings;

/**
 * Where a portal's settings live: portal.json in the repository (versioned with the branch), or
 * kept by Portalwright outside it (a portal imported from a git URL whose repository has no
 * portal.json; nothing of them reaches the project's host).
 */
export type SettingsStoredIn = 'REPOSITORY' | 'PORTALWRIGHT';

/** portal.json of the branch the user has open (or the settings Portalwright keeps), with the defaults filled in. */
export type PortalSettings = Narrow<
  gen.EditingSettings,
  {
    engineType: EngineType;
    supportLevel: SupportLevel;
    scope: PortalScope;
    type?: PortalType;
    languageSettings: LanguageSettings;
    commitMessageRule?: CommitMessageRule;
    storedIn?: SettingsStoredIn;
  }
>;

/** The caller's workspace: branch, uncommitted changes, commits ahead/behind the branch. */
export type WorkspaceStatus = Narrow<gen.WorkspaceStatus, { changes: Record<string, ChangeType> }>;

export type OpenedPortal = Narrow<
  gen.PortalOpened,
  { portal: Portal; settings: PortalSettings; status: WorkspaceStatus }
>;

/** probe-settings.json of the workspace (free-form JSON; null when the file does not exist). */
export type ProbeSettings = unknown;

export type LocalCommit = gen.WorkspaceLocalCommit;

export type CommitResult = gen.EditingCommitAnswer;

export type WorkspaceChange = Narrow<gen.EditingWorkspaceChange, { changes: Record<string, ChangeType> }>;

export type References = gen.PortalReferences;

export type NewPortal = Narrow<gen.PortalCreateBody, { type?: PortalType; scope?: PortalScope }>;

/** Error codes for which a failed open offers Reset (spec 1 §4.2, named variant). */
export const RESET_CODES = [
  'PORTAL_REBASE_ERROR',
  'PORTAL_MERGE_ERROR',
  'GIT_INVALID_WORKSPACE',
  'GIT_INVALID_WORKSPACE_ERROR_OPENING_PORTAL',
  'GIT_CONFLICTS',
  'GIT_LOCAL_COMMITS_ERROR',
  'GIT_ERROR',
  'GIT_ERROR_INVALID_REQUEST',
  'GIT_ERROR_MERGE_FAILED',
  'GIT_ERROR_OCCURRED_WHILE_REBASING',
  'BRANCH_DOES_NOT_EXIST',
  'BRANCH_DOES_NOT_EXIST_IN_PORTAL',
] as const;

/** Numeric codes that allow Reset (spec 1 §4.2, numeric variant). */
export const RESET_NUMERIC_CODES = [19, 20, 61, 112, 113, 114, 115, 134] as const;

/** Whether an error code offers Reset on the portal-open error screen. */
export function offersReset(code: string | number | undefined | null): boolean {
  if (code === undefined || code === null || code === '') return false;
  if (typeof code === 'number' || /^\d+$/.test(code))
    return (RESET_NUMERIC_CODES as readonly number[]).includes(Number(code));
  return (RESET_CODES as readonly string[]).includes(code);
}

/** A branch name in a URL segment: '/' becomes ':' (spec 1 §2.1). */
export const branchToUrl = (branch: string) => branch.replace(/\//g, ':');
/** A branch name from a URL segment: ':' becomes '/'. */
export const branchFromUrl = (segment: string) => segment.replace(/:/g, '/');

const seg = (v: Id) => encodeURIComponent(String(v));
const p = (d: Id, portalId: Id) => `portal/${seg(d)}/${seg(portalId)}`;

export const portalApi = {
  list: (d: Id) => api.get<Portal[]>(`portal/${seg(d)}`),
  categorized: (d: Id) => api.get<Category[]>(`portal/${seg(d)}/categorized`),
  open: (d: Id, portalId: Id, branch?: string, override = false) =>
    api.get<OpenedPortal>(`${p(d, portalId)}/open`, {
      query: { branch: branch ? branchToUrl(branch) : undefined, override: override || undefined },
    }),
  localChanges: (d: Id, portalId: Id) => api.get<WorkspaceStatus>(`${p(d, portalId)}/local-changes`),
  localCommits: (d: Id, portalId: Id) => api.get<LocalCommit[]>(`${p(d, portalId)}/local-commits`),
  commit: (d: Id, portalId: Id, message: string) => api.post<CommitResult>(`${p(d, portalId)}/commits`, { message }),
  revertAll: (d: Id, portalId: Id) => api.post<void>(`${p(d, portalId)}/revert`, {}),
  revertTo: (d: Id, portalId: Id, commitId: string) => api.post<CommitResult>(`${p(d, portalId)}/revert`, { commitId }),
  reset: (d: Id, portalId: Id, branch: string) =>
    api.put<WorkspaceStatus>(`${p(d, portalId)}/reset/${seg(branchToUrl(branch))}`),
  workspaceChanges: (d: Id, portalId: Id, branch: string) =>
    api.get<WorkspaceChange[]>(`${p(d, portalId)}/wsChanges/${seg(branchToUrl(branch))}`),

  branches: (d: Id, portalId: Id) => api.get<string[]>(`${p(d, portalId)}/branches`),
  createBranch: (d: Id, portalId: Id, name: string, from?: string) =>
    api.post<{ name: string }>(`${p(d, portalId)}/branches`, { name, from }),
  mergeBranch: (d: Id, portalId: Id, source: string, target: string) =>
    api.put<void>(`${p(d, portalId)}/branches`, { source, target }),
  deleteBranch: (d: Id, portalId: Id, branch: string) =>
    api.delete<void>(`${p(d, portalId)}/branches`, { query: { branch: branchToUrl(branch) } }),
  references: (d: Id, portalId: Id) => api.get<References>(`portal_branch/allReferences/${seg(d)}/${seg(portalId)}`),
  activeBranch: (d: Id, portalId: Id) =>
    api.get<string>(`portal_branch/branches/active/${seg(d)}/${seg(portalId)}`, { responseType: 'text' }),
  remoteBranches: (d: Id, gitUrl: string, userName?: string, password?: string) =>
    api.post<{ allReferences: string[] }>(`portal_branch/branches/url/${seg(d)}`, { gitUrl, userName, password }),
  /** The branches a portal made from the template would have (spec 3 §7 POST /branches/template/{domainId}/). */
  templateBranches: async (d: Id, template: { id: number } | { starter: string }) =>
    (await api.post<{ allReferences?: string[] }>(`portal_branch/branches/template/${seg(d)}/`, template))
      ?.allReferences ?? [],

  createFromTemplate: (d: Id, portal: NewPortal, template: { templateId?: number; starter?: string }) =>
    api.post<Portal>(`portal/create_template/${seg(d)}`, { ...portal, ...template }),
  createFromUrl: (d: Id, portal: NewPortal & { url: string }, userName?: string, password?: string) =>
    api.post<Portal>(`portal/create_url/${seg(d)}`, { portal, userName, password, categoryID: portal.categoryId }),
  clone: (d: Id, sourcePortalId: Id, portal: NewPortal) =>
    api.post<Portal>(`portal/clone/${seg(d)}/${seg(sourcePortalId)}`, portal),
  activate: (d: Id, portalId: Id, comment: string) =>
    api.put<Portal>(`portal/activate/${seg(d)}/${seg(portalId)}`, undefined, { query: { comment } }),
  deactivate: (d: Id, portalId: Id, comment: string) =>
    api.put<Portal>(`portal/deactivate/${seg(d)}/${seg(portalId)}`, undefined, { query: { comment } }),
  remove: (d: Id, portalId: Id, comment: string) => api.delete<void>(p(d, portalId), { query: { comment } }),

  /** portal.json of the workspace with its version. */
  settings: (d: Id, portalId: Id): Promise<Versioned<PortalSettings>> =>
    api.versioned.get<PortalSettings>(`settings/${seg(d)}/${seg(portalId)}`),
  /** Saves portal.json if it is still at `version`; 409 FILE_CHANGED otherwise. Answers the saved file and its new version. */
  saveSettings: (
    d: Id,
    portalId: Id,
    settings: PortalSettings,
    version: string | null,
  ): Promise<Versioned<PortalSettings>> =>
    api.versioned.put<PortalSettings>(`settings/${seg(d)}/${seg(portalId)}`, settings, version),
  /** probe-settings.json of the workspace with its version. */
  probeSettings: async (d: Id, portalId: Id): Promise<Versioned<ProbeSettings>> => {
    const { data, version } = await api.versioned.get<{ data?: ProbeSettings } | undefined>(
      `portal/load/${seg(d)}/${seg(portalId)}/probeSettings`,
    );
    return { data: data?.data ?? null, version };
  },
  /** Saves probe-settings.json if it is still at `version`; 409 FILE_CHANGED otherwise. Answers the new version. */
  saveProbeSettings: async (
    d: Id,
    portalId: Id,
    data: ProbeSettings,
    version: string | null,
  ): Promise<Versioned<ProbeSettings>> => {
    const saved = await api.versioned.post<unknown>(
      `portal/save/${seg(d)}/${seg(portalId)}/probeSettings`,
      { data },
      version,
    );
    return { data, version: saved.version };
  },

  categories: (d: Id) => api.get<Category[]>(`category/${seg(d)}`),
  createCategory: (d: Id, name: string) => api.post<Category>(`category/${seg(d)}`, { name }),
  renameCategory: (d: Id, id: Id, name: string) => api.put<void>(`category/${seg(d)}/${seg(id)}`, { name }),
  deleteCategory: (d: Id, id: Id) => api.delete<void>(`category/${seg(d)}/${seg(id)}`),
  linkPortals: (d: Id, categoryId: Id, portalIds: Id[]) =>
    api.post<void>(`category/${seg(d)}/${seg(categoryId)}/link`, undefined, {
      query: { portalIds: portalIds.join(',') },
    }),
  unlinkPortals: (d: Id, categoryId: Id, portalIds: Id[]) =>
    api.delete<void>(`category/${seg(d)}/${seg(categoryId)}/link`, { query: { portalIds: portalIds.join(',') } }),

  templates: (d: Id) => api.get<Template[]>(`template/${seg(d)}`),
  createTemplate: (d: Id, templateName: string, source: { starter?: string; portalId?: number }) =>
    api.post<Template>(`template/accounts/${seg(d)}/templates`, { templateName, ...source }),
  renameTemplate: (d: Id, id: number, templateName: string) =>
    api.put<void>(`template/accounts/${seg(d)}/templates`, { id, templateName }),
  deleteTemplate: (d: Id, id: Id) => api.delete<void>(`template/accounts/${seg(d)}/templates/${seg(id)}`),

  /** Admin search across domains (spec 1 §7): pn = part of the name, uuid = portal id. */
  search: (pn?: string, uuid?: string) => api.get<Portal[]>('search/portals', { query: { pn, uuid } }),
};

/**
 * Every query key of portals, in one place. Keys under workspace(d, p) (['portal', d, p, …])
 * are derived from the user's workspace and refreshed with it (core/workspaceRefresh);
 * a new workspace-derived query must use a key under it.
 */
export const portalKeys = {
  /** Every workspace query of a domain's portals. */
  domainWorkspaces: (d: Id) => ['portal', String(d)] as const,
  /** Every portal-management query of a domain. */
  domainManaged: (d: Id) => ['portals-admin', String(d)] as const,
  /** Everything of a portal's workspace. */
  workspace: (d: Id, p: Id) => ['portal', String(d), String(p)] as const,
  localChanges: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'local-changes'] as const,
  localCommits: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'local-commits'] as const,
  /** Other users' changes on `branch`; without a branch, the prefix of every branch's list. */
  wsChanges: (d: Id, p: Id, branch?: string) =>
    branch === undefined
      ? ([...portalKeys.workspace(d, p), 'ws-changes'] as const)
      : ([...portalKeys.workspace(d, p), 'ws-changes', branch] as const),
  references: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'references'] as const,
  /** portal.json of the workspace on `branch`: Versioned<PortalSettings>. */
  settings: (d: Id, p: Id, branch: string) => [...portalKeys.workspace(d, p), 'settings', branch] as const,
  /** probe-settings.json of the workspace on `branch`: Versioned<ProbeSettings>. */
  probeSettings: (d: Id, p: Id, branch: string) => [...portalKeys.workspace(d, p), 'probe-settings', branch] as const,

  /** The portal selector's lists of a domain. */
  domainPortals: (d: Id) => ['portals', String(d)] as const,
  categorized: (d: Id) => ['portals', String(d), 'categorized'] as const,

  /** Portal management's lists of a domain. */
  managed: (d: Id) => ['portals-admin', String(d), 'portals'] as const,
  /** The branches of a template ('starter:crew', 'template:4'). */
  templateBranches: (d: Id, template: string) => ['portals-admin', String(d), 'template-branches', template] as const,
  categories: (d: Id) => ['portals-admin', String(d), 'categories'] as const,
  templates: (d: Id) => ['portals-admin', String(d), 'templates'] as const,
  branches: (d: Id, p: Id) => ['portals-admin', String(d), 'portal', String(p), 'branches'] as const,
  activeBranch: (d: Id, p: Id) => ['portals-admin', String(d), 'portal', String(p), 'active-branch'] as const,
  search: (query: unknown) => ['portals-admin', 'search', query] as const,
};

/** True for a templates query of any domain (['portals-admin', d, 'templates']). */
export const isTemplatesKey = (key: readonly unknown[]) => key[0] === 'portals-admin' && key[2] === 'templates';
