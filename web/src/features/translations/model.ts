/**
 * The translation manager's pure model (spec 2 §3 "Translation data", §4 "Translations", §5):
 * drafts of every language file, unsaved changes split into key changes and value changes, the
 * status of a key in a language (the contract's rules, for keys with unsaved edits), the status
 * icons and the key list's filters.
 */
import {
  keyType,
  sameValue,
  shownKey,
  TRANSLATION_STATUSES,
  type KeyStatus,
  type TranslationData,
  type TranslationLayout,
  type Translations,
  type TranslationStatus,
} from '../../api/translations';
import { languageLabel } from '../../lib/languages';
import { KEY_LABEL_MAX, TRANSLATION_MESSAGES } from './messages';

interface KeyUnion {
  sorted: string[];
  set: Set<string>;
}

/**
 * The key union of a draft, cached by the draft's identity. A value edit of an existing key
 * (setDraftValue) hands its union on to the new draft, so typing in an editor never rebuilds or
 * re-sorts the key list (5,000 keys stay fast).
 */
const unions = new WeakMap<TranslationData, KeyUnion>();

function keyUnion(data: TranslationData): KeyUnion {
  const cached = unions.get(data);
  if (cached) return cached;
  const set = new Set<string>();
  for (const map of Object.values(data)) for (const key of Object.keys(map)) set.add(key);
  const union = { sorted: [...set].sort(), set };
  unions.set(data, union);
  return union;
}

/** Every key of every language, sorted (the same array while the set of keys does not change). */
export function unionKeys(data: TranslationData): string[] {
  return keyUnion(data).sorted;
}

export interface UnsavedChanges {
  /** Keys added or deleted. */
  keyChanges: ReadonlySet<string>;
  /** `${language}\u0000${key}` of every changed value (an added or deleted key marks its values too). */
  valueChanges: ReadonlySet<string>;
}

export const valueChangeId = (language: string, key: string) => `${language}\u0000${key}`;

/** What differs between the loaded files and the draft. */
export function unsavedChanges(baseline: TranslationData, draft: TranslationData): UnsavedChanges {
  const keyChanges = new Set<string>();
  const valueChanges = new Set<string>();
  const baseKeys = keyUnion(baseline);
  const draftKeys = keyUnion(draft);
  if (baseKeys !== draftKeys) {
    for (const key of draftKeys.set) if (!baseKeys.set.has(key)) keyChanges.add(key);
    for (const key of baseKeys.set) if (!draftKeys.set.has(key)) keyChanges.add(key);
  }
  const languages = new Set([...Object.keys(baseline), ...Object.keys(draft)]);
  for (const language of languages) {
    const before = baseline[language] ?? {};
    const after = draft[language] ?? {};
    if (before === after) continue;
    for (const key of Object.keys(after)) {
      const was = before[key];
      if (was === after[key] && was !== undefined) continue;
      if (!(key in before) || !sameValue(was, after[key])) valueChanges.add(valueChangeId(language, key));
    }
    for (const key of Object.keys(before)) if (!(key in after)) valueChanges.add(valueChangeId(language, key));
  }
  // Adding or deleting a key marks both kinds of change (spec 2 §4).
  for (const key of keyChanges) for (const language of languages) valueChanges.add(valueChangeId(language, key));
  return { keyChanges, valueChanges };
}

export const hasUnsavedChanges = (changes: UnsavedChanges) =>
  changes.keyChanges.size > 0 || changes.valueChanges.size > 0;

/** Keys with a change in any language. */
export function changedKeys(changes: UnsavedChanges): Set<string> {
  const keys = new Set(changes.keyChanges);
  for (const id of changes.valueChanges) keys.add(id.slice(id.indexOf('\u0000') + 1));
  return keys;
}

const isEmpty = (value: string | undefined) => (value ?? '').trim() === '';
/** IMG_ and LNK_ keys may carry the default's value in every language (nested keys are texts). */
const sameAllowed = (key: string, layout?: TranslationLayout) =>
  layout !== 'nested' && (key.startsWith('IMG_') || key.startsWith('LNK_'));

/** The status of `key` in `language` by the contract's rules. */
export function computeKeyStatus(
  data: TranslationData,
  defaultLanguage: string,
  languages: readonly string[],
  language: string,
  key: string,
  layout?: TranslationLayout,
): KeyStatus {
  const defaults = data[defaultLanguage] ?? {};
  const others = languages.filter((l) => l !== defaultLanguage);
  if (language === defaultLanguage) {
    if (!(key in defaults)) return { status: 'MISSING', reason: 'KEY_MISSING_IN_DEFAULT' };
    if (isEmpty(defaults[key])) return { status: 'INCOMPLETE', reason: 'DEFAULT_VALUE_MISSING' };
    if (others.some((l) => !(key in (data[l] ?? {})))) return { status: 'INCOMPLETE', reason: 'KEY_MISSING_IN_OTHERS' };
    if (
      others.some((l) => {
        const v = data[l]?.[key];
        return isEmpty(v) || (!sameAllowed(key, layout) && sameValue(v, defaults[key]));
      })
    )
      return { status: 'INCOMPLETE', reason: 'REQUIRED_IN_OTHERS' };
    return { status: 'COMPLETED', reason: '' };
  }
  const own = data[language] ?? {};
  if (!(key in own)) return { status: 'MISSING', reason: 'KEY_MISSING' };
  if (!(key in defaults)) return { status: 'MISSING', reason: 'KEY_MISSING_IN_DEFAULT' };
  if (isEmpty(defaults[key])) return { status: 'INCOMPLETE', reason: 'DEFAULT_VALUE_MISSING' };
  if (isEmpty(own[key])) return { status: 'INCOMPLETE', reason: 'REQUIRED' };
  if (!sameAllowed(key, layout) && sameValue(own[key], defaults[key]))
    return { status: 'INCOMPLETE', reason: 'REQUIRED' };
  return { status: 'COMPLETED', reason: '' };
}

export type StatusIcon = 'check' | 'question' | 'cross' | 'exclamation';

/**
 * The icon of a status (spec 2 §4): check = complete, question mark = missing, cross = incomplete,
 * exclamation mark when the default-language value is empty or a filled value is still flagged.
 */
export function statusIcon(status: KeyStatus, value: string | undefined): StatusIcon {
  if (status.status === 'COMPLETED') return 'check';
  if (status.status === 'MISSING') return 'question';
  if (status.reason === 'DEFAULT_VALUE_MISSING') return 'exclamation';
  if (status.reason === 'REQUIRED' && !isEmpty(value)) return 'exclamation';
  return 'cross';
}

/** The tooltip of a status. */
export function statusTooltip(status: KeyStatus): string {
  if (status.status === 'COMPLETED') return TRANSLATION_MESSAGES.completed;
  return TRANSLATION_MESSAGES.tooltips[status.reason] ?? status.status;
}

/** A key as the list shows it (shownKey: the product's keys lower case), cut at 28 characters. */
export function keyLabel(key: string, layout?: TranslationLayout): string {
  const shown = shownKey(key, layout);
  return shown.length > KEY_LABEL_MAX ? `${shown.slice(0, KEY_LABEL_MAX)}…` : shown;
}

/** A key with its lower-cased form, built once per key list (the search compares against it). */
export interface IndexedKey {
  key: string;
  lower: string;
  type: string;
}

export const indexKeys = (keys: readonly string[], layout?: TranslationLayout): IndexedKey[] =>
  keys.map((key) => ({ key, lower: key.toLowerCase(), type: keyType(key, layout) }));

export interface KeyFilter {
  search: string;
  /** '' for every type; else TXT, IMG or LNK. */
  type: string;
  /** '' for every status. */
  status: TranslationStatus | '';
}

/** The keys the filters let through, in list order. */
export function filterKeys(
  index: readonly IndexedKey[],
  filter: KeyFilter,
  statusOf: (key: string) => TranslationStatus | undefined,
): string[] {
  const search = filter.search.trim().toLowerCase();
  const out: string[] = [];
  for (const entry of index) {
    if (search && !entry.lower.includes(search)) continue;
    if (filter.type && entry.type !== filter.type) continue;
    if (filter.status && statusOf(entry.key) !== filter.status) continue;
    out.push(entry.key);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Draft edits (each answers a new draft; untouched languages keep their identity)

export function addKeyToDraft(draft: TranslationData, languages: readonly string[], key: string): TranslationData {
  const next: TranslationData = { ...draft };
  for (const language of languages) next[language] = { ...(draft[language] ?? {}), [key]: '' };
  return next;
}

export function deleteKeyFromDraft(draft: TranslationData, key: string): TranslationData {
  const next: TranslationData = {};
  for (const [language, map] of Object.entries(draft)) {
    if (key in map) {
      const copy = { ...map };
      delete copy[key];
      next[language] = copy;
    } else next[language] = map;
  }
  return next;
}

export function setDraftValue(draft: TranslationData, language: string, key: string, value: string): TranslationData {
  const next = { ...draft, [language]: { ...(draft[language] ?? {}), [key]: value } };
  // The set of keys is unchanged when the key exists already: the union carries over.
  const union = unions.get(draft);
  if (union?.set.has(key)) unions.set(next, union);
  return next;
}

/** The draft's changes (against `baseline`) put on top of freshly loaded files (the conflict's "reapply"). */
export function reapplyChanges(
  fresh: TranslationData,
  baseline: TranslationData,
  draft: TranslationData,
): TranslationData {
  const changes = unsavedChanges(baseline, draft);
  let next: TranslationData = { ...fresh };
  for (const key of changes.keyChanges) {
    const added = Object.values(draft).some((m) => key in m);
    if (!added) next = deleteKeyFromDraft(next, key);
  }
  for (const id of changes.valueChanges) {
    const split = id.indexOf('\u0000');
    const language = id.slice(0, split);
    const key = id.slice(split + 1);
    const mine = draft[language];
    if (mine && key in mine) next = setDraftValue(next, language, key, mine[key]);
  }
  return next;
}

// ---------------------------------------------------------------------------
// The screen: its language, the key panel's choices

/**
 * The language shown: the screen's own choice, else the route's when the portal has it, else
 * the default language (the route's when there is none).
 */
export function shownLanguage(
  chosen: string | null,
  routeLanguage: string,
  languages: readonly string[],
  defaultLanguage: string,
): string {
  return chosen ?? (languages.includes(routeLanguage) ? routeLanguage : defaultLanguage || routeLanguage);
}

/** The file of a language's translations (issue 21 presence): as the server found it, else the product's name. */
export const translationPath = (info: Pick<Translations, 'files'>, language: string): string =>
  info.files?.[language] ?? `translations/${language}.json`;

/** The language picker's options, the default language marked. */
export const languageOptions = (languages: readonly string[], defaultLanguage: string) =>
  languages.map((code) => ({
    value: code,
    label: code === defaultLanguage ? `${languageLabel(code)} (default)` : languageLabel(code),
  }));

export const TYPE_OPTIONS = [
  { value: '', label: 'All types' },
  { value: 'TXT', label: 'Text (txt)' },
  { value: 'IMG', label: 'Image (img)' },
  { value: 'LNK', label: 'Link (lnk)' },
];

const STATUS_LABELS: Record<TranslationStatus, string> = {
  COMPLETED: 'Completed',
  INCOMPLETE: 'Incomplete',
  MISSING: 'Missing',
};

export const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...TRANSLATION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
];
