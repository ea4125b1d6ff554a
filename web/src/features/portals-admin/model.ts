/**
 * The pure rules of the portal management screens: the settings form's rules and edits (the
 * re-basing of an edit is settingsEdit.ts), the portal list's status actions, the create-portal
 * form's rules and body, and the branch dialogs' rules.
 */
import { z } from 'zod';
import { toApiError } from '../../api/errors';
import type {
  Category,
  NewPortal,
  Portal,
  PortalScope,
  PortalSettings,
  PortalType,
  Template,
  Versioned,
} from '../../api/portal';
import { LANGUAGE_CODE } from '../../lib/rules.generated';
import { gitUrl, MESSAGES, portalName } from '../../lib/validation';
import { requiredField } from '../../ui/schemas';

// ---------------------------------------------------------------------------
// Portal Settings

/** The file the settings screen edits (issue 21 presence). */
export const SETTINGS_FILE = 'portal.json';

export const SETTINGS_MESSAGES = {
  saved: 'Settings saved to your workspace. Commit them to share them.',
  /** Saved settings kept by Portalwright (an imported portal's): in effect at once, nothing to commit. */
  savedKept: 'Settings saved. They apply to every branch at once; nothing is committed to the repository.',
  saveFailed: 'Could not save the portal settings',
  conflictTitle: 'Portal settings changed',
  changedWhileEditing:
    'Portal settings were changed in your workspace while you were editing them (by a reload, a revert, a branch switch or another save).',
  nothingSaved: 'Nothing was saved. Your changes are still here:',
  reloadHint:
    '"Reload and reapply" loads the current settings and puts your changes on top of them, for you to check and save. "Reload and discard" loads them without your changes.',
  reloadAndReapply: 'Reload and reapply my changes',
  reloadAndDiscard: 'Reload and discard my changes',
  outOfDate: 'These settings changed in your workspace since you started editing. Saving them would be refused.',
  review: 'Reload…',
  reappliedTitle: 'Your changes were applied again on top of the current settings',
  reappliedHint: 'Check them, then Save.',
  languageCode: 'Enter a language code like en_GB.',
  languageTwice: 'The language is already in the list.',
  noLanguage: 'Add at least one language.',
  relativePath: 'Enter a folder inside the portal (no leading /, no ..).',
  extension: 'Enter an extension like .scss.',
} as const;

const reLanguage = LANGUAGE_CODE;
const reExtension = /^\.?[A-Za-z0-9]+$/;

/** The client-side twin of the server's rule for folders inside the portal. */
export function relativePathError(path: string): string | null {
  if (path === '') return null;
  const parts = path.split('/');
  if (path.startsWith('/') || path.includes('\\') || parts.includes('..') || parts[0] === '.git')
    return SETTINGS_MESSAGES.relativePath;
  return null;
}

/** The message for a language code about to be added, or null ('' is no input yet). */
export function languageInputError(code: string, languages: readonly string[]): string | null {
  if (code === '') return null;
  if (!reLanguage.test(code)) return SETTINGS_MESSAGES.languageCode;
  return languages.includes(code) ? SETTINGS_MESSAGES.languageTwice : null;
}

/** The message for an extension about to be added, or null ('' is no input yet). */
export const extensionInputError = (ext: string): string | null =>
  ext === '' || reExtension.test(ext) ? null : SETTINGS_MESSAGES.extension;

export type LanguageSettings = PortalSettings['languageSettings'];

/** A language added; the first language becomes the default. */
export function withLanguage(ls: LanguageSettings, code: string): Partial<LanguageSettings> {
  return { languages: [...ls.languages, code], defaultLanguage: ls.languages.length === 0 ? code : ls.defaultLanguage };
}

/** A language removed; removing the default makes the first one left the default. */
export function withoutLanguage(ls: LanguageSettings, code: string): Partial<LanguageSettings> {
  const languages = ls.languages.filter((l) => l !== code);
  return { languages, defaultLanguage: ls.defaultLanguage === code ? (languages[0] ?? '') : ls.defaultLanguage };
}

/** The extensions with `ext` added (with its dot), unchanged when it is there already. */
export function withExtension(extensions: readonly string[], ext: string): string[] {
  const dotted = ext.startsWith('.') ? ext : `.${ext}`;
  return extensions.includes(dotted) ? [...extensions] : [...extensions, dotted];
}

/** The form's field errors (null where a field passes). */
export function settingsErrors(values: PortalSettings) {
  const ls = values.languageSettings;
  return {
    languages: ls.languages.length === 0 ? SETTINGS_MESSAGES.noLanguage : null,
    translationsBasePath: relativePathError(ls.translationsBasePath),
    languageBasePath: relativePathError(ls.languageBasePath),
    outputPath: relativePathError(values.taskRunnerSettings.outputPath),
  };
}

export type SettingsErrors = ReturnType<typeof settingsErrors>;

/** Whether the settings may be saved: no field error and a default language among the languages. */
export function settingsValid(values: PortalSettings): boolean {
  const ls = values.languageSettings;
  return Object.values(settingsErrors(values)).every((e) => e === null) && ls.languages.includes(ls.defaultLanguage);
}

/** The settings as the form edits them: the scope upper case (FULL when missing). */
export function normaliseSettings(s: PortalSettings): PortalSettings {
  return { ...s, scope: (s.scope ?? 'FULL').toUpperCase() as PortalScope };
}

export type VersionedSettings = Versioned<PortalSettings>;

export const toForm = (v: VersionedSettings): VersionedSettings => ({
  data: normaliseSettings(v.data),
  version: v.version,
});

/** What identifies a version of the file: the server's version, or the content when it sent none. */
export const stampOf = (v: VersionedSettings) => v.version ?? JSON.stringify(normaliseSettings(v.data));

// ---------------------------------------------------------------------------
// Manage Portals

export type StatusAction = 'activate' | 'deactivate' | 'delete';

/** The words of a status action: the comment dialog's title, text and button, the toasts. */
export const STATUS_ACTIONS: Record<
  StatusAction,
  { title: string; submit: string; done: (name: string) => string; failed: string; text: (name: string) => string }
> = {
  activate: {
    title: 'Activate Portal',
    submit: 'Activate',
    done: (n) => `Portal ${n} activated.`,
    failed: 'Failed to activate portal',
    text: (n) => `Activate ${n}? Say why; the comment is kept in the audit history.`,
  },
  deactivate: {
    title: 'Deactivate Portal',
    submit: 'Deactivate',
    done: (n) => `Portal ${n} deactivated.`,
    failed: 'Failed to deactivate portal',
    text: (n) => `Deactivate ${n}? It moves to Inactive Portals. Say why; the comment is kept in the audit history.`,
  },
  delete: {
    title: 'Delete Portal',
    submit: 'Delete',
    done: (n) => `Portal ${n} deleted.`,
    failed: 'Failed to delete portal',
    text: (n) =>
      `Delete ${n}? Its repository, branches and every workspace are removed. This cannot be undone. Say why; the comment is kept in the audit history.`,
  },
};

/** Active: status active and not deactivated. */
export const isActivePortal = (portal: Pick<Portal, 'status' | 'deactivated'>): boolean =>
  portal.status === 'active' && !portal.deactivated;

/** A portal's category as the move dialog's choice ('' for none). */
export const categoryChoice = (portal: Pick<Portal, 'categoryId'> | null): string =>
  portal?.categoryId != null ? String(portal.categoryId) : '';

/** The success message of a move ('' target: out of its category). */
export function movedMessage(portal: Pick<Portal, 'name'>, to: string, categories: readonly Category[]): string {
  const name = categories.find((c) => String(c.id) === to)?.name;
  return name ? `${portal.name} moved to ${name}.` : `${portal.name} removed from its category.`;
}

/** How many of the portals are in a category. */
export const portalCount = (category: Pick<Category, 'id'>, portals: readonly Pick<Portal, 'categoryId'>[]): number =>
  portals.filter((p) => p.categoryId === category.id).length;

// ---------------------------------------------------------------------------
// Create Portal

export type CreateSource = 'template' | 'url' | 'clone';

export const CREATE_MESSAGES = {
  created: 'Portal created successfully',
  cloneFailed: 'Failed to clone portal',
  remoteFailed: 'Failed to create portal from remote',
  templateFailed: 'Failed to create portal from template',
  loadBranchesFailed: (url: string) => `Failed to load branches from URL ${url}`,
  loadBranchesFirst: 'Load the branches of the repository first.',
} as const;

export interface CreateValues {
  source: CreateSource;
  name: string;
  type: PortalType;
  scope: PortalScope;
  categoryId: string;
  template: string;
  /** The template's branch the portal opens on; '' for the template's default. */
  templateBranch: string;
  cloneId: string;
  url: string;
  userName: string;
  password: string;
}

/** A template's choice in the form: 'starter:{name}' for a built-in starter, else 'template:{id}'. */
export const templateKey = (t: Template) => (t.builtIn && t.starter ? `starter:${t.starter}` : `template:${t.id}`);

/** A template choice taken apart: its kind ('starter' or 'template') and its starter name or id. */
export function parseTemplateKey(key: string): { kind: string; value: string } {
  const [kind, value] = key.split(/:(.*)/s);
  return { kind, value };
}

/** The git URL's rule (required, then lib/validation's). */
export const createUrlError = (url: string) => (url.trim() === '' ? MESSAGES.fieldRequired : gitUrl(url.trim()));

/** The form's rules: the name always (lib/validation, with its length), the chosen source's fields. */
export const createSchema = z
  .object({
    source: z.enum(['template', 'url', 'clone']),
    name: requiredField(portalName),
    type: z.enum(['CREW', 'PASSENGER']),
    scope: z.enum(['FULL', 'MICROSITE', 'CAPTIVE']),
    categoryId: z.string(),
    template: z.string(),
    templateBranch: z.string(),
    cloneId: z.string(),
    url: z.string(),
    userName: z.string(),
    password: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.source === 'template' && v.template === '') ctx.addIssue({ code: 'custom', path: ['template'], message: '' });
    if (v.source === 'clone' && v.cloneId === '') ctx.addIssue({ code: 'custom', path: ['cloneId'], message: '' });
    const bad = v.source === 'url' ? createUrlError(v.url) : null;
    if (bad) ctx.addIssue({ code: 'custom', path: ['url'], message: bad });
  });

/** The form's start: without templates (none, or no template_read to list them) it starts on the git URL. */
export function createDefaults(
  templates: readonly Template[],
  initialSource: CreateSource,
  initialCloneId: number | undefined,
): CreateValues {
  return {
    source: initialSource === 'template' && templates.length === 0 ? 'url' : initialSource,
    name: '',
    type: 'CREW',
    scope: 'FULL',
    categoryId: '',
    template: templates[0] ? templateKey(templates[0]) : '',
    templateBranch: '',
    cloneId: initialCloneId !== undefined ? String(initialCloneId) : '',
    url: '',
    userName: '',
    password: '',
  };
}

/** The portal the form describes (name trimmed; '' category for none). */
export const newPortalOf = (values: CreateValues): NewPortal => ({
  name: values.name.trim(),
  type: values.type,
  scope: values.scope,
  categoryId: values.categoryId === '' ? null : Number(values.categoryId),
});

/** The spec's title of the source that failed (spec 3 §4). */
export const createFailureTitle = (source: CreateSource): string =>
  source === 'clone'
    ? CREATE_MESSAGES.cloneFailed
    : source === 'url'
      ? CREATE_MESSAGES.remoteFailed
      : CREATE_MESSAGES.templateFailed;

/** The branches loaded for the URL now in the field (loaded for another URL: none). */
export interface LoadedBranches {
  url: string;
  names: string[];
}
export const branchesLoadedFor = (branches: LoadedBranches | null, url: string): branches is LoadedBranches =>
  branches !== null && branches.url === url.trim();

// ---------------------------------------------------------------------------
// Branches

export const BRANCH_MESSAGES = {
  loadFailed: 'Failed to retrieve portal branches',
  mergeConflictTitle: 'The branches could not be merged',
  activeCannotBeDeleted: 'The active branch cannot be deleted.',
  sameBranch: 'Choose two different branches.',
} as const;

/** The branch a new branch starts from: the current one, else the active one, else the first. */
export const defaultFromBranch = (branches: readonly string[], current: string, active: string): string =>
  branches.includes(current) ? current : active || branches[0] || '';

/** A new branch name's rule beyond lib/validation's: not a branch that exists. */
export const branchExistsError = (branches: readonly string[], name: string): string | null =>
  branches.includes(name.trim()) ? `The branch ${name.trim()} already exists.` : null;

/** A merge needs two different branches. */
export const mergeValid = (source: string, target: string): boolean =>
  source !== '' && target !== '' && source !== target;

/** The target's message: the same branch twice ('' when fine). */
export const mergeTargetError = (source: string, target: string): string | null =>
  source !== '' && source === target ? BRANCH_MESSAGES.sameBranch : null;

/** A merge refused for a conflict (told in the dialog; anything else is a toast). */
export const isMergeConflict = (error: unknown): boolean => {
  const apiError = toApiError(error);
  return apiError.hasCode('PORTAL_MERGE_ERROR') || apiError.httpStatus === 409;
};
