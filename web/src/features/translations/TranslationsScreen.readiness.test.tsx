/** The Translation Manager's readiness marks and its arrival at a key (issue 29 item 2). */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TranslationData } from '../../api/translations';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { jsonResponse, mockFetch, readinessAnswer } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { computeKeyStatus } from './model';
import TranslationsScreen from './TranslationsScreen';

vi.mock('../widgets/richtext/RichTextEditor', () => ({
  RichTextEditor: (props: { value: string; ariaLabel: string; onChange?: (v: string) => void }) => (
    <textarea aria-label={props.ariaLabel} value={props.value} onChange={(e) => props.onChange?.(e.target.value)} />
  ),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const LANGS = ['en_GB', 'fr_FR'];
const KEYS = Array.from({ length: 40 }, (_, i) => `TXT_K${String(i).padStart(2, '0')}`);
const data: TranslationData = {
  en_GB: { TXT_HELLO: 'Hello {name}', TXT_BYE: 'Bye', ...Object.fromEntries(KEYS.map((k) => [k, k])) },
  fr_FR: { TXT_HELLO: 'Bonjour', TXT_BYE: 'Au revoir', ...Object.fromEntries(KEYS.map((k) => [k, `${k} fr`])) },
};
const placeholder = {
  rule: 'translation.placeholder',
  path: 'translations/fr_FR.json',
  key: 'TXT_HELLO',
  language: 'fr_FR',
  message: "Placeholder {name} of the default language's value is missing",
};
const findings = [
  placeholder,
  { ...placeholder, rule: 'translation.length', key: 'TXT_BYE', severity: 'warning', message: 'Over 5 characters' },
  // Another language's finding and a status rule: no mark in fr_FR's list.
  { ...placeholder, key: 'TXT_BYE', language: 'en_GB', path: 'translations/en_GB.json', message: 'English' },
  { ...placeholder, rule: 'translation.missing', key: 'TXT_K00', message: 'Missing' },
  { ...placeholder, rule: 'translation.length', key: 'TXT_K39', severity: 'warning', message: 'Too long' },
];

function render(path: string) {
  const statusOf = (lang: string) =>
    jsonResponse({
      language: lang,
      default: lang === 'en_GB',
      keys: Object.fromEntries(
        Object.keys(data.en_GB).map((k) => [k, computeKeyStatus(data, 'en_GB', LANGS, lang, k)]),
      ),
    });
  const fetch = mockFetch({
    'GET api/v1/translation/1/2': () =>
      jsonResponse({
        languageMode: 'TRANSLATION',
        defaultLanguage: 'en_GB',
        languages: LANGS,
        data,
        versions: { en_GB: 'v1', fr_FR: 'v2' },
      }),
    'GET api/v1/translation/1/2/status/en_GB': () => statusOf('en_GB'),
    'GET api/v1/translation/1/2/status/fr_FR': () => statusOf('fr_FR'),
    'GET api/v1/language/en_GB': () => jsonResponse({ code: 'en_GB', direction: 'ltr' }),
    'GET api/v1/language/fr_FR': () => jsonResponse({ code: 'fr_FR', direction: 'ltr' }),
    'GET api/v1/readiness/1/2': () => readinessAnswer(findings),
  });
  useSelectionStore.setState({
    portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    branch: 'master',
  });
  renderScreen(TranslationsScreen, '/domain/:domain/portal/:portal/branch/:branch/:language/translations', path);
  return { fetch, user: userEvent.setup() };
}

const option = async (name: string) =>
  within(await screen.findByRole('listbox', { name: 'Translation keys' })).findByRole('option', { name });

describe('Translation Manager readiness marks', () => {
  it("marks the selected language's keys with placeholder, markup and length findings, and lists the key's", async () => {
    const { user } = render('/domain/1/portal/2/branch/master/fr_FR/translations');
    const hello = await option('txt_hello');
    const mark = await within(hello).findByTestId('readiness-mark');
    expect(mark).toHaveAccessibleName(placeholder.message);
    expect(mark).toHaveAttribute('data-severity', 'error');
    // A warning is marked in the warning colour; the English finding is not fr_FR's.
    const bye = within(await option('txt_bye')).getByTestId('readiness-mark');
    expect(bye).toHaveAttribute('data-severity', 'warning');
    expect(bye).toHaveAccessibleName('Over 5 characters');
    // translation.missing is the status icon's business: no readiness mark.
    expect(within(await option('txt_k00')).queryByTestId('readiness-mark')).not.toBeInTheDocument();
    // Marks are no tab stops.
    expect(mark).not.toHaveAttribute('tabindex');

    expect(screen.queryByTestId('readiness-findings')).not.toBeInTheDocument();
    await user.click(hello);
    const list = await screen.findByTestId('readiness-findings');
    expect(list).toHaveTextContent('Readiness: 1 error');
    expect(list).toHaveTextContent(placeholder.message);
  });

  it("shows no mark in the default language for the other language's findings", async () => {
    render('/domain/1/portal/2/branch/master/en_GB/translations');
    const bye = await option('txt_bye');
    await waitFor(() => expect(within(bye).getByTestId('readiness-mark')).toHaveAccessibleName('English'));
    expect(within(await option('txt_hello')).queryByTestId('readiness-mark')).not.toBeInTheDocument();
  });

  it('arrives at ?key=…&language=…: selects the language and the key, scrolled into view', async () => {
    render('/domain/1/portal/2/branch/master/en_GB/translations?key=TXT_K39&language=fr_FR');
    const selected = await option('txt_k39');
    await waitFor(() => expect(selected).toHaveAttribute('aria-selected', 'true'));
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveTextContent(/French/);
    expect(await screen.findByTestId('readiness-findings')).toHaveTextContent('Too long');
    expect(screen.getByRole('textbox', { name: 'Translation value' })).toHaveValue('TXT_K39 fr');
    expect(screen.getByRole('listbox', { name: 'Translation keys' }).scrollTop).toBeGreaterThan(0);
  });
});
