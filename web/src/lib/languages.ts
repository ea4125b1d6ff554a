/**
 * Language names for the codes portals use ('en_GB', 'fr', 'ara'), from the browser's own
 * locale data (Intl.DisplayNames, CLDR): screens show a name beside every code. A code the
 * locale data does not know is shown as it is.
 */
const names = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard', fallback: 'none' });
  } catch {
    return null;
  }
})();

/** 'en_GB' → 'English (United Kingdom)'; undefined when the code is not a known language. */
export function languageName(code: string): string | undefined {
  if (!names || !code) return undefined;
  try {
    const name = names.of(code.replace(/_/g, '-'));
    return name && name.toLowerCase() !== code.toLowerCase() ? name : undefined;
  } catch {
    return undefined; // not a well-formed language tag
  }
}

/** 'English (United Kingdom) · en_GB', or the code alone when it has no name. */
export function languageLabel(code: string): string {
  const name = languageName(code);
  return name ? `${name} · ${code}` : code;
}
