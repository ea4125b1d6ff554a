import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import type { PortalSettings, Template } from '../../api/portal';
import {
  branchesLoadedFor,
  branchExistsError,
  categoryChoice,
  CREATE_MESSAGES,
  createDefaults,
  createFailureTitle,
  createSchema,
  createUrlError,
  defaultFromBranch,
  extensionInputError,
  isActivePortal,
  isMergeConflict,
  languageInputError,
  mergeTargetError,
  mergeValid,
  movedMessage,
  newPortalOf,
  normaliseSettings,
  parseTemplateKey,
  portalCount,
  relativePathError,
  SETTINGS_MESSAGES,
  settingsErrors,
  settingsValid,
  stampOf,
  STATUS_ACTIONS,
  templateKey,
  withExtension,
  withLanguage,
  withoutLanguage,
} from './model';

const settings = (patch: Partial<PortalSettings> = {}): PortalSettings =>
  ({
    engineType: 'STATIC',
    supportLevel: 'FULL',
    scope: 'FULL',
    languageSettings: {
      languages: ['en_GB', 'fr_FR'],
      defaultLanguage: 'en_GB',
      languageMode: 'TRANSLATION',
      translationsBasePath: 'translations',
      languageBasePath: '',
    },
    taskRunnerSettings: { active: true, autoRun: false, extensions: ['.scss'], outputPath: 'dist' },
    ...patch,
  }) as PortalSettings;

describe('portal settings', () => {
  it('checks folders inside the portal', () => {
    expect(relativePathError('')).toBeNull();
    expect(relativePathError('assets/css')).toBeNull();
    expect(relativePathError('/etc')).toBe(SETTINGS_MESSAGES.relativePath);
    expect(relativePathError('a/../b')).toBe(SETTINGS_MESSAGES.relativePath);
    expect(relativePathError('a\\b')).toBe(SETTINGS_MESSAGES.relativePath);
    expect(relativePathError('.git/hooks')).toBe(SETTINGS_MESSAGES.relativePath);
  });

  it('checks a language code and an extension before they are added', () => {
    expect(languageInputError('', ['en_GB'])).toBeNull();
    expect(languageInputError('de_DE', ['en_GB'])).toBeNull();
    expect(languageInputError('german', ['en_GB'])).toBe(SETTINGS_MESSAGES.languageCode);
    expect(languageInputError('en_GB', ['en_GB'])).toBe(SETTINGS_MESSAGES.languageTwice);
    expect(extensionInputError('')).toBeNull();
    expect(extensionInputError('.scss')).toBeNull();
    expect(extensionInputError('ts')).toBeNull();
    expect(extensionInputError('.s css')).toBe(SETTINGS_MESSAGES.extension);
  });

  it('adds and removes languages, keeping a default', () => {
    const ls = settings().languageSettings;
    expect(withLanguage(ls, 'de_DE')).toEqual({ languages: ['en_GB', 'fr_FR', 'de_DE'], defaultLanguage: 'en_GB' });
    expect(withLanguage({ ...ls, languages: [], defaultLanguage: '' }, 'de_DE')).toEqual({
      languages: ['de_DE'],
      defaultLanguage: 'de_DE',
    });
    expect(withoutLanguage(ls, 'fr_FR')).toEqual({ languages: ['en_GB'], defaultLanguage: 'en_GB' });
    expect(withoutLanguage(ls, 'en_GB')).toEqual({ languages: ['fr_FR'], defaultLanguage: 'fr_FR' });
    expect(withoutLanguage({ ...ls, languages: ['en_GB'] }, 'en_GB')).toEqual({ languages: [], defaultLanguage: '' });
  });

  it('adds an extension with its dot, once', () => {
    expect(withExtension(['.scss'], 'ts')).toEqual(['.scss', '.ts']);
    expect(withExtension(['.scss'], '.ts')).toEqual(['.scss', '.ts']);
    expect(withExtension(['.scss'], 'scss')).toEqual(['.scss']);
  });

  it('validates the whole form', () => {
    expect(settingsErrors(settings())).toEqual({
      languages: null,
      translationsBasePath: null,
      languageBasePath: null,
      outputPath: null,
    });
    expect(settingsValid(settings())).toBe(true);
    const none = settings({
      languageSettings: { ...settings().languageSettings, languages: [], defaultLanguage: '' },
      taskRunnerSettings: { ...settings().taskRunnerSettings, outputPath: '../out' },
    });
    expect(settingsErrors(none)).toMatchObject({
      languages: SETTINGS_MESSAGES.noLanguage,
      outputPath: SETTINGS_MESSAGES.relativePath,
    });
    expect(settingsValid(none)).toBe(false);
    const noDefault = settings({ languageSettings: { ...settings().languageSettings, defaultLanguage: 'de_DE' } });
    expect(settingsValid(noDefault)).toBe(false);
  });

  it('normalises the scope and stamps a version by its content when the server sent none', () => {
    expect(normaliseSettings(settings({ scope: 'microsite' as PortalSettings['scope'] })).scope).toBe('MICROSITE');
    expect(normaliseSettings({ ...settings(), scope: undefined as unknown as PortalSettings['scope'] }).scope).toBe(
      'FULL',
    );
    expect(stampOf({ data: settings(), version: 'v7' })).toBe('v7');
    const lower = settings({ scope: 'full' as PortalSettings['scope'] });
    expect(stampOf({ data: lower, version: null })).toBe(stampOf({ data: settings(), version: null }));
  });
});

describe('manage portals', () => {
  it('tells active portals and words the status actions', () => {
    expect(isActivePortal({ status: 'active', deactivated: false })).toBe(true);
    expect(isActivePortal({ status: 'active', deactivated: true })).toBe(false);
    expect(isActivePortal({ status: 'inactive', deactivated: false })).toBe(false);
    expect(STATUS_ACTIONS.deactivate.done('Crew')).toBe('Portal Crew deactivated.');
    expect(STATUS_ACTIONS.delete.failed).toBe('Failed to delete portal');
    expect(STATUS_ACTIONS.activate.text('Crew')).toMatch(/^Activate Crew\?/);
  });

  it('moves portals between categories', () => {
    const categories = [
      { id: 1, name: 'Fleet', deactivated: false, children: [] },
      { id: 2, name: 'Lounge', deactivated: false, children: [] },
    ];
    expect(categoryChoice({ categoryId: 2 })).toBe('2');
    expect(categoryChoice({ categoryId: null })).toBe('');
    expect(categoryChoice(null)).toBe('');
    expect(movedMessage({ name: 'Crew' }, '1', categories)).toBe('Crew moved to Fleet.');
    expect(movedMessage({ name: 'Crew' }, '', categories)).toBe('Crew removed from its category.');
    expect(
      portalCount({ id: 1 }, [{ categoryId: 1 }, { categoryId: 2 }, { categoryId: 1 }, { categoryId: null }]),
    ).toBe(2);
  });
});

const starter = { id: 0, name: 'blank', builtIn: true, starter: 'blank', templateName: 'Blank' } as unknown as Template;
const own = { id: 12, name: 'own', builtIn: false, templateName: 'Ours' } as unknown as Template;

describe('create portal', () => {
  it('keys templates and takes the keys apart', () => {
    expect(templateKey(starter)).toBe('starter:blank');
    expect(templateKey(own)).toBe('template:12');
    expect(parseTemplateKey('starter:blank')).toEqual({ kind: 'starter', value: 'blank' });
    expect(parseTemplateKey('template:12')).toEqual({ kind: 'template', value: '12' });
    expect(parseTemplateKey('starter:a:b')).toEqual({ kind: 'starter', value: 'a:b' });
  });

  it('starts on the git URL without templates, and on the first template otherwise', () => {
    expect(createDefaults([], 'template', undefined)).toMatchObject({ source: 'url', template: '', cloneId: '' });
    expect(createDefaults([own, starter], 'template', undefined)).toMatchObject({
      source: 'template',
      template: 'template:12',
    });
    expect(createDefaults([], 'clone', 5)).toMatchObject({ source: 'clone', cloneId: '5' });
  });

  it("validates the chosen source's fields only", () => {
    const base = createDefaults([own], 'template', undefined);
    expect(createSchema.safeParse({ ...base, name: 'Crew' }).success).toBe(true);
    expect(createSchema.safeParse({ ...base, name: '' }).success).toBe(false);
    expect(createSchema.safeParse({ ...base, name: 'Crew', template: '' }).success).toBe(false);
    expect(createSchema.safeParse({ ...base, name: 'Crew', source: 'clone' }).success).toBe(false);
    expect(createSchema.safeParse({ ...base, name: 'Crew', source: 'clone', cloneId: '3' }).success).toBe(true);
    expect(createSchema.safeParse({ ...base, name: 'Crew', source: 'url', url: '' }).success).toBe(false);
    expect(
      createSchema.safeParse({ ...base, name: 'Crew', source: 'url', url: 'https://git.example.com/a.git' }).success,
    ).toBe(true);
    expect(createUrlError('  ')).not.toBeNull();
    expect(createUrlError('https://git.example.com/a.git')).toBeNull();
  });

  it('builds the portal and names the failure by source', () => {
    const values = { ...createDefaults([own], 'template', undefined), name: ' Crew ', categoryId: '4' };
    expect(newPortalOf(values)).toEqual({ name: 'Crew', type: 'CREW', scope: 'FULL', categoryId: 4 });
    expect(newPortalOf({ ...values, categoryId: '' }).categoryId).toBeNull();
    expect(createFailureTitle('clone')).toBe(CREATE_MESSAGES.cloneFailed);
    expect(createFailureTitle('url')).toBe(CREATE_MESSAGES.remoteFailed);
    expect(createFailureTitle('template')).toBe(CREATE_MESSAGES.templateFailed);
  });

  it('counts branches as loaded only for the URL they were loaded for', () => {
    const loaded = { url: 'https://git.example.com/a.git', names: ['main'] };
    expect(branchesLoadedFor(loaded, ' https://git.example.com/a.git ')).toBe(true);
    expect(branchesLoadedFor(loaded, 'https://git.example.com/b.git')).toBe(false);
    expect(branchesLoadedFor(null, 'https://git.example.com/a.git')).toBe(false);
  });
});

describe('branches', () => {
  it('creates from the current branch, else the active one, else the first', () => {
    expect(defaultFromBranch(['main', 'dev'], 'dev', 'main')).toBe('dev');
    expect(defaultFromBranch(['main', 'dev'], 'gone', 'main')).toBe('main');
    expect(defaultFromBranch(['main', 'dev'], 'gone', '')).toBe('main');
    expect(defaultFromBranch([], '', '')).toBe('');
  });

  it('refuses a branch that exists and a merge of a branch into itself', () => {
    expect(branchExistsError(['main'], ' main ')).toBe('The branch main already exists.');
    expect(branchExistsError(['main'], 'dev')).toBeNull();
    expect(mergeValid('dev', 'main')).toBe(true);
    expect(mergeValid('dev', 'dev')).toBe(false);
    expect(mergeValid('', 'main')).toBe(false);
    expect(mergeTargetError('dev', 'dev')).toBe('Choose two different branches.');
    expect(mergeTargetError('', '')).toBeNull();
    expect(mergeTargetError('dev', 'main')).toBeNull();
  });

  it('tells a merge conflict from other failures', () => {
    expect(isMergeConflict(new ApiError({ httpStatus: 409, errorMessage: 'conflict' }))).toBe(true);
    expect(isMergeConflict(new ApiError({ httpStatus: 400, errorCode: 'PORTAL_MERGE_ERROR' }))).toBe(true);
    expect(isMergeConflict(new ApiError({ httpStatus: 500, errorMessage: 'boom' }))).toBe(false);
  });
});
