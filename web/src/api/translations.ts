/**
 * Translation calls (spec 2 §2 "Translation manager", §3, §4 "Translations"; /tmp issue 11 contract)
 * and the language service (`/language`).
 *
 * Everything works on the caller's workspace of the portal: a save is a local change. The whole
 * set of languages is read at once with one opaque version per language file, and saved at once
 * with those versions (PUT). A stale version is refused with 409 FILE_CHANGED and nothing is
 * written: `isFileChanged(error)` (api/client) tells the screen to offer the conflict dialog.
 *
 * Workspace-derived query keys are under portalKeys.workspace(d, p), so Reload Now, reverts,
 * Reset and branch switches refresh them. Languages are not workspace-derived.
 */
import { MARKUP } from '../lib/rules.generated';
import { api, isFileChanged } from './client';
import { ApiError } from './errors';
import { portalKeys, type Id } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export { isFileChanged };

/** Key prefixes (upper case as stored; shown lower case). */
export const KEY_TYPES = ['TXT', 'IMG', 'LNK'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export const TRANSLATION_STATUSES = ['COMPLETED', 'INCOMPLETE', 'MISSING'] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];

export type TranslationReason =
  | ''
  | 'REQUIRED'
  | 'REQUIRED_IN_OTHERS'
  | 'DEFAULT_VALUE_MISSING'
  | 'KEY_MISSING'
  | 'KEY_MISSING_IN_OTHERS'
  | 'KEY_MISSING_IN_DEFAULT';

/**
 * How the portal's translation files are written (the default language's file decides): `flat`,
 * the product's own format (upper-case TXT_/IMG_/LNK_ keys), or `nested`, real-world locale JSON
 * whose keys are the dotted paths of their levels (`nav.home`), kept as written; every nested
 * key is a text.
 */
export type TranslationLayout = 'flat' | 'nested';

/** One language file: key → value (flat: upper-case keys; nested: dotted paths). */
export type TranslationMap = Record<string, string>;
/** Per language, its file. */
export type TranslationData = Record<string, TranslationMap>;
/** Per language, the opaque version of its file ('' for a file that does not exist yet). */
export type TranslationVersions = Record<string, string>;

export type Translations = Narrow<
  gen.TranslationTranslations,
  { layout: TranslationLayout; data: TranslationData; versions: TranslationVersions }
>;

export type KeyStatus = Narrow<
  gen.TranslationKeyStatus,
  { status: TranslationStatus; reason: TranslationReason | string }
>;

export type TranslationStatusReport = Narrow<gen.TranslationLanguageStatus, { keys: Record<string, KeyStatus> }>;

export type SaveTranslationsRequest = Narrow<
  gen.TranslationSaveRequest,
  { data: TranslationData; versions: TranslationVersions }
>;

export type SaveTranslationsResponse = gen.TranslationSaved;

export type TranslationReportEntry = Narrow<gen.TranslationReportKey, { status: TranslationStatus }>;

export type TranslationReport = Narrow<gen.TranslationReport, { keys: TranslationReportEntry[] }>;

/** An entry of the language service. */
export type Language = gen.LanguageEntry;

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `translation/${seg(d)}/${seg(p)}`;

/**
 * A file that cannot be read answers 422 with the spec's message and, in `data.reason`, exactly
 * why ('locales/pt-br.json: the value at nav.items is an array; …'): the error carries the reason
 * as its message, so the screen's title (the spec's message) is followed by it.
 */
export function withLoadReason(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const reason = (error.data as { reason?: unknown } | null)?.reason;
  if (typeof reason !== 'string' || reason === '') return error;
  return new ApiError(
    {
      errorTitle: error.errorTitle,
      errorMessage: reason,
      errorCode: error.errorCode,
      errorCodeDesc: error.errorCodeDesc,
      httpStatus: error.httpStatus,
      data: error.data,
      requestId: error.requestId,
      actions: error.actions,
    },
    error.server,
  );
}

/** Every language file of the portal with its version (an unreadable file: withLoadReason). */
export const getTranslations = (d: Id, p: Id) =>
  api.get<Translations>(base(d, p), { cache: 'no-store' }).catch((error: unknown) => {
    throw withLoadReason(error);
  });

/** The status of every key (the union over all languages) in `language`. */
export const getTranslationStatus = (d: Id, p: Id, language: string) =>
  api.get<TranslationStatusReport>(`${base(d, p)}/status/${seg(language)}`, { cache: 'no-store' });

/**
 * Saves every language at once with the versions read. All or nothing; a stale version is
 * refused with 409 FILE_CHANGED (isFileChanged), a missing one with 428 VERSION_REQUIRED.
 */
export const saveTranslations = (d: Id, p: Id, body: SaveTranslationsRequest) =>
  api.put<SaveTranslationsResponse>(base(d, p), body);

/** The keys of `language` that are not COMPLETED, with the counts. */
export const getTranslationReport = (d: Id, p: Id, language: string) =>
  api.get<TranslationReport>(`${base(d, p)}/report/${seg(language)}`);

/** The URL of the CSV report (an attachment), relative to the page. */
export const translationReportCsvPath = (d: Id, p: Id, language: string) =>
  `${base(d, p)}/report/${seg(language)}?format=csv`;

/** Every known language/locale. */
export const listLanguages = () => api.get<Language[]>('language');

/** One language; 404 'Failed to load language {code}' when unknown. */
export const getLanguage = (code: string) => api.get<Language>(`language/${seg(code)}`);

export const translationApi = {
  getTranslations,
  getTranslationStatus,
  saveTranslations,
  getTranslationReport,
  listLanguages,
  getLanguage,
};

export const translationKeys = {
  /** Everything of the portal's translations (workspace-derived). */
  all: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'translations'] as const,
  data: (d: Id, p: Id) => [...translationKeys.all(d, p), 'data'] as const,
  status: (d: Id, p: Id, language: string) => [...translationKeys.all(d, p), 'status', language] as const,
  report: (d: Id, p: Id, language: string) => [...translationKeys.all(d, p), 'report', language] as const,
  /** Not workspace-derived. */
  languages: () => ['language'] as const,
  language: (code: string) => ['language', code] as const,
};

// ---------------------------------------------------------------------------
// Key and value rules shared by the screen and the selector (spec 2 §3, §5)

/** A key of the product's own form: TXT_, IMG_ or LNK_ then a name (any case). */
const PRODUCT_KEY = /^(txt|img|lnk)_/i;

/**
 * The key type of a key: its first three characters, upper case ('txt_hello' → 'TXT'). Every key
 * of a nested portal is a text, as is a key without the product's prefix when the layout is not
 * known ('nav.home').
 */
export const keyType = (key: string, layout?: TranslationLayout): string => {
  if (layout === 'nested') return 'TXT';
  if (layout === 'flat' || PRODUCT_KEY.test(key)) return key.slice(0, 3).toUpperCase();
  return 'TXT';
};

/** Whether a key begins with txt, lnk or img (any case). */
export const hasKnownPrefix = (key: string): boolean => /^(txt|img|lnk)/i.test(key.trim());

/** The stored form of a key: upper case, trimmed (nested: trimmed, as written). */
export const storedKey = (key: string, layout?: TranslationLayout): string =>
  layout === 'nested' ? key.trim() : key.trim().toUpperCase();

/** The shown form of a key: lower case for the product's keys; a nested key as written. */
export const shownKey = (key: string, layout?: TranslationLayout): string =>
  layout !== 'nested' && (layout === 'flat' || PRODUCT_KEY.test(key)) ? key.toLowerCase() : key;

/** Whether a value has markup (a tag): the server's rule (lib/rules.generated.ts). */
export const hasMarkup = (value: string): boolean => MARKUP.test(value);

/** The comparison form of a value: a text value without markup gets a trailing newline (spec 2 §5). */
export const comparableValue = (value: string | undefined): string => {
  const v = value ?? '';
  return hasMarkup(v) ? v : `${v}\n`;
};

/** Whether two values are the same for the dirty check (trailing newline rule, then trimmed). */
export const sameValue = (a: string | undefined, b: string | undefined): boolean =>
  comparableValue(a).trim() === comparableValue(b).trim();

/** Languages written right to left when the language service does not say (fallback). */
export const RTL_LANGUAGES = ['ar', 'he', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug'] as const;

/** 'ar_SA' → 'rtl'; the language service's direction wins when known. */
export function languageDirection(code: string, language?: Pick<Language, 'direction'> | null): 'ltr' | 'rtl' {
  if (language?.direction === 'rtl' || language?.direction === 'ltr') return language.direction;
  const primary = code.split(/[_-]/)[0].toLowerCase();
  return (RTL_LANGUAGES as readonly string[]).includes(primary) ? 'rtl' : 'ltr';
}
