import { describe, expect, it } from 'vitest';
import { languageOptions, shownLanguage, STATUS_OPTIONS, translationPath, TYPE_OPTIONS } from './model';

describe('the translation manager screen', () => {
  it("shows its own choice, else the route's language when the portal has it, else the default", () => {
    const languages = ['en_GB', 'fr_FR'];
    expect(shownLanguage('fr_FR', 'en_GB', languages, 'en_GB')).toBe('fr_FR');
    expect(shownLanguage(null, 'fr_FR', languages, 'en_GB')).toBe('fr_FR');
    expect(shownLanguage(null, 'de_DE', languages, 'en_GB')).toBe('en_GB');
    expect(shownLanguage(null, 'de_DE', [], '')).toBe('de_DE');
  });

  it("names a language's file as the server found it, else translations/{language}.json", () => {
    expect(translationPath({ files: { fr_FR: 'i18n/fr.json' } }, 'fr_FR')).toBe('i18n/fr.json');
    expect(translationPath({ files: { fr_FR: 'i18n/fr.json' } }, 'en_GB')).toBe('translations/en_GB.json');
    expect(translationPath({ files: {} }, 'en_GB')).toBe('translations/en_GB.json');
  });

  it('marks the default language among the options', () => {
    const options = languageOptions(['en_GB', 'fr_FR'], 'fr_FR');
    expect(options.map((o) => o.value)).toEqual(['en_GB', 'fr_FR']);
    expect(options[0].label).not.toMatch(/\(default\)$/);
    expect(options[1].label).toMatch(/ \(default\)$/);
  });

  it('filters by every key type and status, or none', () => {
    expect(TYPE_OPTIONS.map((o) => o.value)).toEqual(['', 'TXT', 'IMG', 'LNK']);
    expect(STATUS_OPTIONS).toEqual([
      { value: '', label: 'All statuses' },
      { value: 'COMPLETED', label: 'Completed' },
      { value: 'INCOMPLETE', label: 'Incomplete' },
      { value: 'MISSING', label: 'Missing' },
    ]);
  });
});
