import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isWorkspaceQueryKey } from '../core/workspaceRefresh';
import { bodyOf, errorResponse, jsonResponse, mockFetch, queryOf } from '../test/helpers';
import { signIn } from '../test/render';
import {
  comparableValue,
  getLanguage,
  getTranslationReport,
  getTranslations,
  getTranslationStatus,
  hasKnownPrefix,
  isFileChanged,
  keyType,
  languageDirection,
  listLanguages,
  sameValue,
  saveTranslations,
  shownKey,
  storedKey,
  translationKeys,
  translationReportCsvPath,
} from './translations';

beforeEach(() => signIn());
afterEach(() => vi.unstubAllGlobals());

const all = {
  languageMode: 'TRANSLATION',
  defaultLanguage: 'en_GB',
  languages: ['en_GB', 'fr_FR'],
  data: { en_GB: { TXT_HELLO: 'Hello' }, fr_FR: {} },
  versions: { en_GB: 'v1', fr_FR: '' },
};

describe('translation calls', () => {
  it('call the contract paths', async () => {
    const fetch = mockFetch({
      'GET api/v1/translation/1/2': () => jsonResponse(all),
      'GET api/v1/translation/1/2/status/fr_FR': () =>
        jsonResponse({
          language: 'fr_FR',
          default: false,
          keys: { TXT_HELLO: { status: 'MISSING', reason: 'KEY_MISSING' } },
        }),
      'PUT api/v1/translation/1/2': () => jsonResponse({ versions: { en_GB: 'v2', fr_FR: 'v3' } }),
      'GET api/v1/translation/1/2/report/fr_FR': () =>
        jsonResponse({ language: 'fr_FR', total: 1, completed: 0, incomplete: 0, missing: 1, keys: [] }),
      'GET api/v1/language': () => jsonResponse([{ code: 'ar_SA', direction: 'rtl' }]),
      'GET api/v1/language/ar_SA': () => jsonResponse({ code: 'ar_SA', direction: 'rtl' }),
    });
    expect(await getTranslations(1, 2)).toEqual(all);
    expect((await getTranslationStatus(1, 2, 'fr_FR')).keys.TXT_HELLO.status).toBe('MISSING');
    const saved = await saveTranslations(1, 2, { data: all.data, versions: all.versions });
    expect(saved.versions.en_GB).toBe('v2');
    expect(bodyOf(fetch, 'PUT api/v1/translation/1/2')).toEqual({ data: all.data, versions: all.versions });
    expect((await getTranslationReport(1, 2, 'fr_FR')).missing).toBe(1);
    expect(await listLanguages()).toHaveLength(1);
    expect((await getLanguage('ar_SA')).direction).toBe('rtl');
    expect(translationReportCsvPath(1, 2, 'fr_FR')).toBe('translation/1/2/report/fr_FR?format=csv');
    expect(queryOf(fetch, 'GET api/v1/translation/1/2').toString()).toBe('');
  });

  it('surfaces a stale version as FILE_CHANGED', async () => {
    mockFetch({
      'PUT api/v1/translation/1/2': () =>
        errorResponse(409, {
          errorCode: 'FILE_CHANGED',
          data: { path: 'translations/en_GB.json', currentVersion: 'v9' },
        }),
    });
    const error = await saveTranslations(1, 2, { data: {}, versions: {} }).catch((e: unknown) => e);
    expect(isFileChanged(error)).toBe(true);
  });

  it('keeps translation keys under the workspace; languages are not', () => {
    expect(isWorkspaceQueryKey(translationKeys.data(1, 2), 1, 2)).toBe(true);
    expect(isWorkspaceQueryKey(translationKeys.status(1, 2, 'fr_FR'), 1, 2)).toBe(true);
    expect(isWorkspaceQueryKey(translationKeys.languages(), 1, 2)).toBe(false);
  });
});

describe('translation rules', () => {
  it('types keys by their first three characters and checks the prefix', () => {
    expect(keyType('txt_hello')).toBe('TXT');
    expect(keyType('IMG_LOGO')).toBe('IMG');
    expect(hasKnownPrefix('lnk_home')).toBe(true);
    expect(hasKnownPrefix('foo_bar')).toBe(false);
  });

  it('compares text values with a trailing newline added', () => {
    expect(comparableValue('Hello')).toBe('Hello\n');
    expect(comparableValue('<p>Hello</p>')).toBe('<p>Hello</p>');
    expect(sameValue('Hello', 'Hello\n')).toBe(true);
    expect(sameValue('Hello', 'Hallo')).toBe(false);
  });

  it('finds the direction from the language service or the local list', () => {
    expect(languageDirection('ar_SA')).toBe('rtl');
    expect(languageDirection('he')).toBe('rtl');
    expect(languageDirection('fr_FR')).toBe('ltr');
    expect(languageDirection('xx_YY', { direction: 'rtl' })).toBe('rtl');
  });
});

describe('nested locale files', () => {
  it('types, shows and stores nested keys as written; the product keys as before', () => {
    expect(keyType('img.logo', 'nested')).toBe('TXT');
    expect(keyType('IMG_LOGO', 'nested')).toBe('TXT');
    expect(keyType('IMG_LOGO', 'flat')).toBe('IMG');
    expect(keyType('nav.home')).toBe('TXT');
    expect(keyType('lnk_home')).toBe('LNK');
    expect(shownKey('Nav.Home', 'nested')).toBe('Nav.Home');
    expect(shownKey('Nav.Home')).toBe('Nav.Home');
    expect(shownKey('TXT_HELLO')).toBe('txt_hello');
    expect(storedKey(' nav.Home ', 'nested')).toBe('nav.Home');
    expect(storedKey(' txt_hello ')).toBe('TXT_HELLO');
  });

  it('gives an unreadable file its reason as the message', async () => {
    const reason = 'locales/pt-br.json is not valid JSON: line 3, column 5: invalid character';
    mockFetch({
      'GET api/v1/translation/1/2': () =>
        errorResponse(422, {
          errorMessage: "Could not load translation data for lang 'pt_BR'",
          data: { path: 'locales/pt-br.json', language: 'pt_BR', reason },
        }),
    });
    await expect(getTranslations(1, 2)).rejects.toMatchObject({
      httpStatus: 422,
      errorMessage: reason,
      data: { path: 'locales/pt-br.json', language: 'pt_BR' },
    });
  });
});
