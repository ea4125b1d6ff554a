import { describe, expect, it } from 'vitest';
import { languageLabel, languageName } from './languages';

describe('language names', () => {
  it('names the codes portals use, from the locale data', () => {
    expect(languageName('en_GB')).toBe('English (United Kingdom)');
    expect(languageName('fr_FR')).toBe('French (France)');
    expect(languageName('de')).toBe('German');
    expect(languageLabel('it_IT')).toBe('Italian (Italy) · it_IT');
  });

  it('keeps a code without a name as it is', () => {
    expect(languageName('qq_ZZ')).toBeUndefined();
    expect(languageName('not a code')).toBeUndefined();
    expect(languageLabel('qq_ZZ')).toBe('qq_ZZ');
  });
});
