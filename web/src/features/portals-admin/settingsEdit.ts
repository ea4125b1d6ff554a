/**
 * Re-basing an edit of a JSON file onto a newer version of it (issue 8 item 0, "reload and
 * reapply"): the user edited `base` into `mine`; meanwhile the file became `theirs`. The edit
 * is applied to `theirs` change by change, so nothing of either side is lost silently:
 *
 * - a value the user did not change takes theirs;
 * - a value the user changed takes the user's (the user sees it and saves it, or not);
 * - a list of plain values (languages, extensions) keeps theirs, minus what the user removed,
 *   plus what the user added (in the user's order), so two people adding a language each end
 *   up with both;
 * - an object key the user added or removed is added or removed.
 *
 * Nothing here saves anything: the result is a pending edit the user reviews and saves.
 */
import type { PortalSettings } from '../../api/portal';

type Plain = string | number | boolean | null;

const isPlain = (v: unknown): v is Plain => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPlainList = (v: unknown): v is Plain[] => Array.isArray(v) && v.every(isPlain);

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `mine` (an edit of `base`) applied on top of `theirs`. */
export function rebaseEdit<T>(base: T, mine: T, theirs: T): T {
  return merge(base, mine, theirs) as T;
}

function merge(base: unknown, mine: unknown, theirs: unknown): unknown {
  if (sameJson(base, mine)) return theirs;
  if (isPlainList(mine) && isPlainList(theirs)) {
    const before = isPlainList(base) ? base : [];
    const removed = before.filter((v) => !mine.includes(v));
    const added = mine.filter((v) => !before.includes(v));
    const kept = theirs.filter((v) => !removed.includes(v));
    return [...kept, ...added.filter((v) => !kept.includes(v))];
  }
  if (isObject(mine) && isObject(theirs)) {
    const before = isObject(base) ? base : {};
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(theirs)) {
      if (key in before && !(key in mine)) continue; // the user removed it
      result[key] = key in mine ? merge(before[key], mine[key], theirs[key]) : theirs[key];
    }
    for (const key of Object.keys(mine)) {
      if (!(key in theirs) && !(key in before && sameJson(before[key], mine[key]))) result[key] = mine[key];
    }
    return result;
  }
  return mine;
}

/** Settings that hold together after a merge: the default language is one of the languages. */
export function consistentSettings(settings: PortalSettings, preferred?: PortalSettings): PortalSettings {
  const ls = settings.languageSettings;
  if (!ls || ls.languages.includes(ls.defaultLanguage)) return settings;
  const fallback = preferred?.languageSettings?.defaultLanguage;
  const defaultLanguage = fallback && ls.languages.includes(fallback) ? fallback : (ls.languages[0] ?? '');
  return { ...settings, languageSettings: { ...ls, defaultLanguage } };
}

const LABELS: Record<string, string> = {
  engineType: 'Engine type',
  supportLevel: 'Support level',
  scope: 'Scope',
  oneMediaInterstitialSupported: 'One media interstitial',
  'languageSettings.languages': 'language',
  'languageSettings.defaultLanguage': 'Default language',
  'languageSettings.languageMode': 'Language mode',
  'languageSettings.languageBasePath': 'Language base path',
  'languageSettings.translationsBasePath': 'Translations base path',
  'taskRunnerSettings.active': 'Task runner active',
  'taskRunnerSettings.autoRun': 'Task runner auto run',
  'taskRunnerSettings.extensions': 'extension',
  'taskRunnerSettings.outputPath': 'Output path',
  'taskRunnerSettings.dockerFileContent': 'Dockerfile',
  'taskRunnerSettings.templateName': 'Build template',
  userGitUrls: 'git URL',
  commitMessageRule: 'Commit messages',
};

const show = (v: unknown) => (v === '' ? '(empty)' : typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v));

/** The user's edit in words, one line per change: 'Added language fr_FR', 'Engine type: JS_ENGINE'. */
export function describeEdit(base: unknown, mine: unknown, path = ''): string[] {
  if (sameJson(base, mine)) return [];
  const label = LABELS[path] ?? path;
  if (isPlainList(mine) && (isPlainList(base) || base === undefined)) {
    const before = isPlainList(base) ? base : [];
    return [
      ...mine.filter((v) => !before.includes(v)).map((v) => `Added ${label} ${show(v)}`),
      ...before.filter((v) => !mine.includes(v)).map((v) => `Removed ${label} ${show(v)}`),
    ];
  }
  if (isObject(mine)) {
    const before = isObject(base) ? base : {};
    const keys = [...new Set([...Object.keys(before), ...Object.keys(mine)])];
    return keys.flatMap((key) => describeEdit(before[key], mine[key], path ? `${path}.${key}` : key));
  }
  return [`${label}: ${isPlain(mine) ? show(mine) : 'changed'}`];
}
