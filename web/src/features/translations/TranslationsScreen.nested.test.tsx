/** The screen on a portal whose locale files are nested JSON (layout 'nested', issue 24). */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TranslationData } from '../../api/translations';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { useToastStore } from '../../core/toastService';
import { errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { TRANSLATION_MESSAGES as MSG } from './messages';
import { computeKeyStatus } from './model';
import TranslationsScreen from './TranslationsScreen';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  useToastStore.setState({ toasts: [] });
});

const LANGS = ['en_GB', 'pt_BR'];
const fixture = (): TranslationData => ({
  en_GB: { 'nav.home': 'Home', 'nav.About': 'About us', title: 'Welcome' },
  pt_BR: { 'nav.home': 'Início', 'nav.About': 'Sobre nós', title: 'Welcome' },
});

function routes(data: TranslationData = fixture(), get?: () => Response) {
  const statusOf = (lang: string) =>
    jsonResponse({
      language: lang,
      default: lang === 'en_GB',
      keys: Object.fromEntries(
        Object.keys(data.en_GB).map((k) => [k, computeKeyStatus(data, 'en_GB', LANGS, lang, k, 'nested')]),
      ),
    });
  return mockFetch({
    'GET api/v1/translation/1/2':
      get ??
      (() =>
        jsonResponse({
          languageMode: 'TRANSLATION',
          defaultLanguage: 'en_GB',
          languages: LANGS,
          layout: 'nested',
          files: { en_GB: 'locales/en.json', pt_BR: 'locales/pt-br.json' },
          data,
          versions: { en_GB: 'v1', pt_BR: 'v2' },
        })),
    'GET api/v1/translation/1/2/status/en_GB': () => statusOf('en_GB'),
    'GET api/v1/translation/1/2/status/pt_BR': () => statusOf('pt_BR'),
    'GET api/v1/language/en_GB': () => jsonResponse({ code: 'en_GB', direction: 'ltr' }),
    'GET api/v1/language/pt_BR': () => jsonResponse({ code: 'pt_BR', direction: 'ltr' }),
    'PUT api/v1/translation/1/2': () => jsonResponse({ versions: { en_GB: 'v3', pt_BR: 'v4' } }),
  });
}

function render(language = 'en_GB') {
  useSelectionStore.setState({
    portal: { id: 2, name: 'Site', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    branch: 'master',
  });
  renderScreen(
    TranslationsScreen,
    '/domain/:domain/portal/:portal/branch/:branch/:language/translations',
    `/domain/1/portal/2/branch/master/${language}/translations`,
  );
  return userEvent.setup();
}

const puts = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(
    ([url, init]) => (init as RequestInit | undefined)?.method === 'PUT' && String(url).includes('/translation/'),
  );

describe('Translation manager on nested locale files', () => {
  it('lists dotted keys as written, edits values as plain text and saves them under the same keys', async () => {
    const fetch = routes();
    const user = render('pt_BR');
    const list = await screen.findByRole('listbox', { name: 'Translation keys' });
    // Keys as written (not lower-cased); a copied value is still to translate (no key keeps
    // the default's value in a nested portal).
    const about = await within(list).findByRole('option', { name: 'nav.About' });
    expect(within(list).getByRole('option', { name: 'title' })).toBeInTheDocument();
    await waitFor(() =>
      expect(within(list).getByRole('option', { name: 'title' }).querySelector('[data-status]')).toHaveAttribute(
        'data-status',
        'INCOMPLETE',
      ),
    );
    await user.click(about);
    const value = await screen.findByRole('textbox', { name: 'Translation value' });
    expect(value.tagName).toBe('TEXTAREA');
    expect(value).toHaveValue('Sobre nós');
    expect(screen.getAllByText(MSG.plainTextHelp)).toHaveLength(2);
    expect(screen.getByRole('textbox', { name: 'Default language value' })).toHaveValue('About us');
    expect(screen.getByRole('heading', { name: 'nav.About' })).toBeInTheDocument();

    await user.clear(value);
    await user.type(value, 'Quem <b>somos</b>');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(fetch)).toHaveLength(1));
    const body = JSON.parse(String((puts(fetch)[0][1] as RequestInit).body)) as { data: TranslationData };
    expect(body.data.pt_BR).toEqual({ 'nav.home': 'Início', 'nav.About': 'Quem <b>somos</b>', title: 'Welcome' });
    expect(body.data.en_GB).toEqual(fixture().en_GB);
  });

  it('adds a dotted key as written; refuses an empty level and a key below a text', async () => {
    routes();
    const user = render();
    await screen.findByRole('listbox', { name: 'Translation keys' });
    const add = async (key: string) => {
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await user.click(screen.getByRole('button', { name: 'Add key' }));
      const dialog = await screen.findByRole('dialog', { name: MSG.addKeyTitle });
      await user.type(within(dialog).getByRole('textbox', { name: /Key name/ }), key);
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      return dialog;
    };
    let dialog = await add('nav..x');
    expect(await within(dialog).findByText(MSG.nestedKeyRule)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    dialog = await add('title.sub');
    expect(await within(dialog).findByText(MSG.nestedBelowText('title.sub', 'title'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    dialog = await add('nav');
    expect(await within(dialog).findByText(MSG.nestedAboveKeys('nav', 'nav.About'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await add('nav.Contact');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const list = screen.getByRole('listbox', { name: 'Translation keys' });
    const option = await within(list).findByRole('option', { name: 'nav.Contact' });
    expect(option).toHaveAttribute('aria-selected', 'true');
    await waitFor(() =>
      expect(useToastStore.getState().toasts.map((t) => t.message)).toContain(MSG.keyAdded('nav.Contact')),
    );
  });

  it('says why a file cannot be read', async () => {
    const reason =
      'locales/pt-br.json: the value at nav.items is an array; translation files hold texts (strings) in objects';
    routes(fixture(), () =>
      errorResponse(422, {
        errorMessage: "Could not load translation data for lang 'pt_BR'",
        errorCode: 'CONTENT_VALIDATION_FAILED',
        data: { path: 'locales/pt-br.json', language: 'pt_BR', reason },
      }),
    );
    render();
    // The screen's error (and the toast) name the file and what is wrong with it.
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toContain(
        `${MSG.loadFailed('en_GB')}: ${reason}Retry`,
      ),
    );
  });
});
