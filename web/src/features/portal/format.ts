/** Branch labels are cut to 40 characters (spec 1 §9). */
export const BRANCH_LABEL_MAX = 40;
export function branchLabel(name: string): string {
  return name.length > BRANCH_LABEL_MAX ? `${name.slice(0, BRANCH_LABEL_MAX)}…` : name;
}

/** Display names of the portal settings' codes (portal.json): screens never show the codes. */
export const ENGINE_LABELS: Record<string, string> = {
  PORTAL_ENGINE: 'Portal engine',
  JS_ENGINE: 'JS engine',
  UNIVERSAL: 'Universal',
  UNKNOWN: 'Unknown',
};
export const SUPPORT_LEVEL_LABELS: Record<string, string> = { FULL: 'Full', LIMITED: 'Limited' };
export const LANGUAGE_MODE_LABELS: Record<string, string> = {
  MULTILANGUAGE: 'Multilanguage (a tree per language)',
  SINGLE_LANGUAGE: 'Single language',
  TRANSLATION: 'Translation (one tree, translation files)',
};
