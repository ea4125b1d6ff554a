import { describe, expect, it } from 'vitest';
import type { PortalSettings } from '../../api/portal';
import { consistentSettings, describeEdit, rebaseEdit } from './settingsEdit';

const settings = (languages: string[], extra: Partial<PortalSettings> = {}): PortalSettings => ({
  engineType: 'PORTAL_ENGINE',
  supportLevel: 'FULL',
  scope: 'FULL',
  oneMediaInterstitialSupported: false,
  condenseWidgetData: null,
  retainLanguageValuesOnCreate: null,
  languageSettings: {
    languages,
    defaultLanguage: languages[0] ?? '',
    languageMode: 'MULTILANGUAGE',
    retainDefaultsOnCreate: false,
    languageBasePath: '',
    translationsBasePath: 'translations',
  },
  taskRunnerSettings: {
    active: false,
    autoRun: false,
    extensions: ['.scss'],
    outputPath: 'pw-dist',
    dockerFileContent: '',
    templateName: '',
  },
  ...extra,
});

describe('re-basing a settings edit', () => {
  it("keeps both users' languages: theirs stay, mine are added", () => {
    const base = settings(['en_GB']);
    const mine = settings(['en_GB', 'de_DE']);
    const theirs = settings(['en_GB', 'fr_FR']);
    expect(rebaseEdit(base, mine, theirs).languageSettings.languages).toEqual(['en_GB', 'fr_FR', 'de_DE']);
  });

  it('removes what I removed, keeps what they changed that I did not touch', () => {
    const base = settings(['en_GB', 'de_DE']);
    const mine = settings(['en_GB']);
    const theirs = settings(['en_GB', 'de_DE', 'it_IT'], { engineType: 'JS_ENGINE' });
    const merged = rebaseEdit(base, mine, theirs);
    expect(merged.languageSettings.languages).toEqual(['en_GB', 'it_IT']);
    expect(merged.engineType).toBe('JS_ENGINE');
  });

  it('takes my value where I changed one, theirs where I did not', () => {
    const base = settings(['en_GB']);
    const mine = settings(['en_GB'], { supportLevel: 'LIMITED' });
    const theirs = settings(['en_GB'], { supportLevel: 'FULL', scope: 'MICROSITE' });
    const merged = rebaseEdit(base, mine, theirs);
    expect(merged.supportLevel).toBe('LIMITED');
    expect(merged.scope).toBe('MICROSITE');
  });

  it('with no edit, is theirs', () => {
    const theirs = settings(['en_GB', 'fr_FR']);
    expect(rebaseEdit(settings(['en_GB']), settings(['en_GB']), theirs)).toEqual(theirs);
  });

  it('keeps keys it does not know (from theirs) and adds keys I added', () => {
    const base = { a: 1 } as Record<string, unknown>;
    const mine = { a: 1, mine: true };
    const theirs = { a: 1, widgets: { path: 'widgets/database' } };
    expect(rebaseEdit(base, mine, theirs)).toEqual({ a: 1, widgets: { path: 'widgets/database' }, mine: true });
  });

  it('keeps the default language one of the languages', () => {
    const merged = settings(['fr_FR']);
    merged.languageSettings.defaultLanguage = 'en_GB';
    expect(consistentSettings(merged, settings(['fr_FR'])).languageSettings.defaultLanguage).toBe('fr_FR');
  });

  it('says what an edit changes, in words', () => {
    const base = settings(['en_GB', 'de_DE']);
    const mine = settings(['en_GB', 'fr_FR'], { engineType: 'JS_ENGINE' });
    mine.taskRunnerSettings = { ...mine.taskRunnerSettings, active: true, extensions: ['.scss', '.ts'] };
    expect(describeEdit(base, mine)).toEqual([
      'Engine type: JS_ENGINE',
      'Added language fr_FR',
      'Removed language de_DE',
      'Task runner active: on',
      'Added extension .ts',
    ]);
    expect(describeEdit(base, base)).toEqual([]);
  });
});
