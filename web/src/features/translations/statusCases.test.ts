import { describe, expect, it } from 'vitest';
import type { TranslationData, TranslationLayout } from '../../api/translations';
import { computeKeyStatus } from './model';
import cases from './statusCases.generated.json';

// The cases are the server's: internal/translation/statuscases_test.go runs them through the
// server's rules and writes this file (-update). The browser's copy of the rules must agree on
// every one, so a key's status never differs between the screen and the saved report.
describe('key status: the same rules as the server', () => {
  it('has the server cases', () => expect(cases.length).toBeGreaterThan(20));
  for (const c of cases) {
    it(c.name, () => {
      const got = computeKeyStatus(
        c.data as unknown as TranslationData,
        c.defaultLanguage,
        c.languages,
        c.language,
        c.key,
        c.layout as TranslationLayout,
      );
      expect(got).toEqual(c.want);
    });
  }
});
