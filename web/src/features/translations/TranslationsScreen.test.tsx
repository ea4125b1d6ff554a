import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portalKeys } from '../../api/portal';
import type { TranslationData } from '../../api/translations';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { useToastStore } from '../../core/toastService';
import { bodyOf, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { fileAsset } from '../assets/fixtures';
import { renderScreen } from '../../test/render';
import { SPELL_CHECK_STORAGE_KEY, TRANSLATION_MESSAGES as MSG } from './messages';
import { computeKeyStatus, filterKeys, indexKeys } from './model';
import TranslationsScreen from './TranslationsScreen';

// The rich-text editor is tested on its own (widgets/richtext); here it is a plain textarea.
vi.mock('../widgets/richtext/RichTextEditor', () => ({
  RichTextEditor: (props: {
    value: string;
    onChange?: (v: string) => void;
    ariaLabel: string;
    readOnly?: boolean;
    dir?: string;
    spellCheck?: boolean;
  }) => (
    <textarea
      aria-label={props.ariaLabel}
      value={props.value}
      readOnly={props.readOnly}
      dir={props.dir}
      spellCheck={props.spellCheck}
      onChange={(e) => props.onChange?.(e.target.value)}
    />
  ),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const LONG = 'TXT_A_VERY_LONG_KEY_NAME_THAT_IS_CUT_HERE';
const fixture = (): TranslationData => ({
  en_GB: {
    TXT_HELLO: 'Hello',
    TXT_BYE: 'Bye',
    TXT_EMPTY: '',
    IMG_LOGO: '/images/logo.png',
    LNK_HOME: 'https://example.com',
    [LONG]: 'Long',
  },
  fr_FR: {
    TXT_HELLO: 'Bonjour',
    TXT_BYE: 'Bye',
    TXT_EMPTY: 'Vide',
    IMG_LOGO: '/images/logo.png',
    [LONG]: 'Longue',
  },
});
const LANGS = ['en_GB', 'fr_FR'];

const pattern = '/domain/:domain/portal/:portal/branch/:branch/:language/translations';

function routes(data: TranslationData = fixture(), extra: Parameters<typeof mockFetch>[0] = {}) {
  const statusOf = (lang: string) => {
    const keys = Object.fromEntries(
      [...new Set(Object.values(data).flatMap((m) => Object.keys(m)))].map((k) => [
        k,
        computeKeyStatus(data, 'en_GB', LANGS, lang, k),
      ]),
    );
    return jsonResponse({ language: lang, default: lang === 'en_GB', keys });
  };
  return mockFetch({
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
    'PUT api/v1/translation/1/2': () => jsonResponse({ versions: { en_GB: 'v3', fr_FR: 'v4' } }),
    ...extra,
  });
}

function render({
  language = 'en_GB',
  user,
  permissions = [],
  portal = { supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' } as const,
}: {
  language?: string;
  user?: typeof sampleUser;
  permissions?: string[];
  portal?: {
    supportLevel?: 'FULL' | 'LIMITED';
    engineType?: 'PORTAL_ENGINE' | 'UNIVERSAL';
    scope?: 'full' | 'captive';
  };
} = {}) {
  useSelectionStore.setState({
    portal: { id: 2, name: 'Crew Portal', ...portal },
    branch: 'master',
    permissions,
  });
  const utils = renderScreen(
    TranslationsScreen,
    pattern,
    `/domain/1/portal/2/branch/master/${language}/translations`,
    user,
  );
  return { ...utils, user: userEvent.setup() };
}

const reader = { ...sampleUser, admin: false };
const toastTexts = () => useToastStore.getState().toasts.map((t) => t.message);
const keyList = () => screen.findByRole('listbox', { name: 'Translation keys' });

async function chooseOption(user: ReturnType<typeof userEvent.setup>, field: string, option: RegExp | string) {
  await user.click(screen.getByRole('combobox', { name: field }));
  await user.click(within(await screen.findByRole('listbox', { name: field })).getByRole('option', { name: option }));
}

describe('Translation manager', () => {
  it('lists keys lower case, cut at 28 characters, with status icons and tooltips', async () => {
    routes();
    render({ language: 'fr_FR' });
    const list = await keyList();
    const hello = await within(list).findByRole('option', { name: 'txt_hello' });
    expect(within(hello).getByRole('img', { name: MSG.completed })).toHaveAttribute('data-icon', 'check');
    // Same as the default and filled: still flagged → exclamation mark.
    const bye = within(list).getByRole('option', { name: 'txt_bye' });
    expect(within(bye).getByRole('img', { name: MSG.tooltips.REQUIRED })).toHaveAttribute('data-icon', 'exclamation');
    // Missing in French → question mark.
    const home = within(list).getByRole('option', { name: 'lnk_home' });
    expect(within(home).getByRole('img', { name: MSG.tooltips.KEY_MISSING })).toHaveAttribute('data-icon', 'question');
    // Default value empty → exclamation.
    const empty = within(list).getByRole('option', { name: 'txt_empty' });
    expect(within(empty).getByRole('img', { name: MSG.tooltips.DEFAULT_VALUE_MISSING })).toHaveAttribute(
      'data-icon',
      'exclamation',
    );
    // Image equal to the default is fine.
    expect(
      within(within(list).getByRole('option', { name: 'img_logo' })).getByRole('img', { name: MSG.completed }),
    ).toBeInTheDocument();
    const long = within(list).getByRole('option', { name: LONG.toLowerCase() });
    expect(within(long).getByText(`${LONG.toLowerCase().slice(0, 28)}…`)).toHaveAttribute('title', LONG.toLowerCase());
    expect(screen.getByRole('heading', { name: 'Current Language' })).toBeInTheDocument();
  });

  it('shows a cross for an incomplete default-language key', async () => {
    routes({ en_GB: { TXT_A: 'A' }, fr_FR: { TXT_A: '' } });
    render();
    const a = await within(await keyList()).findByRole('option', { name: 'txt_a' });
    expect(within(a).getByRole('img', { name: MSG.tooltips.REQUIRED_IN_OTHERS })).toHaveAttribute('data-icon', 'cross');
  });

  it('searches and filters by key type and status', async () => {
    routes();
    const { user } = render({ language: 'fr_FR' });
    const list = await keyList();
    await within(list).findByRole('option', { name: 'txt_hello' });
    await user.type(screen.getByRole('searchbox', { name: 'Search keys' }), 'HEL');
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['txt_hello']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search keys' }));

    await chooseOption(user, 'Key type', 'Image (img)');
    expect(
      within(await keyList())
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['img_logo']);
    await chooseOption(user, 'Key type', 'All types');
    await chooseOption(user, 'Status', 'Missing');
    expect(
      within(await keyList())
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['lnk_home']);
    await chooseOption(user, 'Status', 'Incomplete');
    expect(
      within(await keyList())
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['txt_bye', 'txt_empty']);
  });

  it('adds keys: bad prefix, duplicate, success with the unsaved mark; deletes keys', async () => {
    routes();
    const { user } = render();
    await within(await keyList()).findByRole('option', { name: 'txt_hello' });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Add key' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add Translation Key' });
    await user.type(within(dialog).getByRole('textbox', { name: /Key name/ }), 'foo_bar');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(toastTexts()).toContain(MSG.noKeyForWidget));
    expect(useToastStore.getState().toasts.find((t) => t.message === MSG.noKeyForWidget)?.type).toBe('WARNING');

    await user.clear(within(dialog).getByRole('textbox', { name: /Key name/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Key name/ }), 'txt_Hello');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText("Translation key 'txt_hello' already exists")).toBeInTheDocument();

    await user.clear(within(dialog).getByRole('textbox', { name: /Key name/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Key name/ }), 'txt_new');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toastTexts()).toContain("Translation key 'txt_new' was added successfully");
    const created = within(await keyList()).getByRole('option', { name: 'txt_new' });
    expect(created).toHaveAttribute('aria-selected', 'true');
    expect(within(created).getByRole('img', { name: MSG.unsavedKey })).toBeInTheDocument();
    expect(save).toBeEnabled();

    await user.click(within(await keyList()).getByRole('option', { name: 'txt_bye' }));
    await user.click(screen.getByRole('button', { name: 'Delete key' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Translation Key' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(toastTexts()).toContain("Translation key 'txt_bye' was deleted successfully");
    expect(within(await keyList()).queryByRole('option', { name: 'txt_bye' })).not.toBeInTheDocument();

    // Cancel drops every unsaved change.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(within(await keyList()).getByRole('option', { name: 'txt_bye' })).toBeInTheDocument();
    expect(within(await keyList()).queryByRole('option', { name: 'txt_new' })).not.toBeInTheDocument();
    expect(save).toBeDisabled();
  });

  it('saves every language at once with the versions read', async () => {
    let release: () => void = () => undefined;
    const fetch = routes(undefined, {
      'PUT api/v1/translation/1/2': async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return jsonResponse({ versions: { en_GB: 'v3', fr_FR: 'v4' } });
      },
    });
    const { user, queryClient } = render({ language: 'fr_FR' });
    queryClient.setQueryData(portalKeys.localChanges(1, 2), []);
    await user.click(await within(await keyList()).findByRole('option', { name: 'txt_bye' }));
    const editor = screen.getByRole('textbox', { name: 'Translation value' });
    expect(screen.getByRole('textbox', { name: 'Default language value' })).toHaveValue('Bye');
    await user.clear(editor);
    await user.type(editor, 'Au revoir');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('progressbar', { name: MSG.pleaseWait })).toBeInTheDocument();
    act(() => release());
    await waitFor(() => expect(toastTexts()).toContain(MSG.saved));
    expect(screen.queryByRole('progressbar', { name: MSG.pleaseWait })).not.toBeInTheDocument();
    // The header's local changes follow the save.
    expect(queryClient.getQueryState(portalKeys.localChanges(1, 2))?.isInvalidated).toBe(true);
    const body = bodyOf(fetch, 'PUT api/v1/translation/1/2') as { data: TranslationData; versions: unknown };
    expect(body.versions).toEqual({ en_GB: 'v1', fr_FR: 'v2' });
    expect(body.data.fr_FR.TXT_BYE).toBe('Au revoir');
    expect(body.data.en_GB).toEqual(fixture().en_GB);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
  });

  it("picks an image key's asset with the image picker; the value is the path without its leading '/'", async () => {
    routes(undefined, {
      'GET api/v1/assets/1/2/src/': () =>
        jsonResponse({ name: '/', path: '/', type: 'DIR', createdDate: '', size: 0, children: [fileAsset('/photo.png')] }),
      'POST api/v1/thumbnail/1/2/token': () => jsonResponse({ token: 't', expiresIn: 600 }),
    });
    const { user } = render();
    await user.click(await within(await keyList()).findByRole('option', { name: 'img_logo' }));
    expect(screen.getByRole('textbox', { name: 'Translation value' })).toHaveValue('/images/logo.png');
    await user.click(screen.getByRole('button', { name: 'Select Image' }));
    const dialog = await screen.findByRole('dialog', { name: 'Select Image' });
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Select photo.png' }));
    await user.click(within(dialog).getByRole('button', { name: 'Select Asset' }));
    // Relative, as the starter's keys and the designer's image fields hold it (the engine sets it as src).
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Translation value' })).toHaveValue('photo.png'));
  });

  it('says why a save failed, naming the language', async () => {
    routes(undefined, {
      'PUT api/v1/translation/1/2': () =>
        errorResponse(422, {
          errorCode: 'CONTENT_VALIDATION_FAILED',
          data: { ruleErrors: [{ message: 'There is no translation key for this widget', key: 'X' }] },
        }),
    });
    const { user } = render();
    await user.click(await within(await keyList()).findByRole('option', { name: 'txt_hello' }));
    await user.type(screen.getByRole('textbox', { name: 'Translation value' }), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.title)).toContain(MSG.saveFailed('en_GB')));
  });

  it('keeps Save disabled and editors read-only without translation_write', async () => {
    routes();
    const { user } = render({ user: reader, permissions: ['translation_read'] });
    await user.click(await within(await keyList()).findByRole('option', { name: 'txt_hello' }));
    expect(screen.getByRole('textbox', { name: 'Translation value' })).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Add key' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete key' })).not.toBeInTheDocument();
  });

  it('is refused without translation:r and explained for limited, UNIVERSAL and captive portals', async () => {
    routes();
    const first = render({ user: reader, permissions: [] });
    expect(await screen.findByRole('alert')).toHaveTextContent(/do not have the right permission/);
    first.unmount();
    const second = render({ portal: { supportLevel: 'LIMITED' } });
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.notAvailable);
    second.unmount();
    render({ portal: { supportLevel: 'FULL', engineType: 'UNIVERSAL' } });
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.notAvailable);
  });

  it('asks before switching language with unsaved changes: reject stays, accept saves and switches', async () => {
    const fetch = routes();
    const { user } = render();
    await user.click(await within(await keyList()).findByRole('option', { name: 'txt_hello' }));
    await user.type(screen.getByRole('textbox', { name: 'Translation value' }), ' there');

    await chooseOption(user, 'Language', /fr_FR/);
    expect(await screen.findByText(MSG.unsavedQuestion)).toBeInTheDocument();
    expect(screen.getByText(MSG.unsavedTitle)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Language' })).toHaveTextContent(/en_GB/));
    expect(
      fetch.mock.calls.some(
        ([url, init]) => (init as RequestInit | undefined)?.method === 'PUT' && String(url).includes('/translation/'),
      ),
    ).toBe(false);

    await chooseOption(user, 'Language', /fr_FR/);
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Language' })).toHaveTextContent(/fr_FR/));
    const body = bodyOf(fetch, 'PUT api/v1/translation/1/2') as { data: TranslationData };
    expect(body.data.en_GB.TXT_HELLO).toBe('Hello there');
    expect(screen.getByRole('textbox', { name: 'Translation value' })).toHaveValue('Bonjour');
  });

  it('switches language without asking when the user cannot write', async () => {
    routes();
    const { user } = render({ user: reader, permissions: ['translation:r'] });
    await within(await keyList()).findByRole('option', { name: 'txt_hello' });
    await chooseOption(user, 'Language', /fr_FR/);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Language' })).toHaveTextContent(/fr_FR/));
    expect(screen.queryByText(MSG.unsavedQuestion)).not.toBeInTheDocument();
  });

  it('asks before leaving the route with unsaved changes', async () => {
    routes();
    const { user, router } = render();
    await user.click(await within(await keyList()).findByRole('option', { name: 'txt_hello' }));
    await user.type(screen.getByRole('textbox', { name: 'Translation value' }), '!');
    act(() => void router.navigate('/elsewhere'));
    expect(await screen.findByText(MSG.unsavedQuestion)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'No' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/translations$/));
  });

  it('offers the conflict dialog on 409 FILE_CHANGED and reapplies the edit on the fresh files', async () => {
    let version = 'v1';
    let conflictOnce = true;
    const fetch = routes(undefined, {
      'GET api/v1/translation/1/2': () =>
        jsonResponse({
          languageMode: 'TRANSLATION',
          defaultLanguage: 'en_GB',
          languages: LANGS,
          data: { ...fixture(), en_GB: { ...fixture().en_GB, TXT_OTHER: version === 'v1' ? 'x' : 'changed' } },
          versions: { en_GB: version, fr_FR: 'v2' },
        }),
      'PUT api/v1/translation/1/2': () => {
        if (conflictOnce) {
          conflictOnce = false;
          version = 'v9';
          return errorResponse(409, { errorCode: 'FILE_CHANGED', data: { path: 'translations/en_GB.json' } });
        }
        return jsonResponse({ versions: { en_GB: 'v10', fr_FR: 'v2' } });
      },
    });
    const { user } = render();
    await user.click(await within(await keyList()).findByRole('option', { name: 'txt_hello' }));
    await user.type(screen.getByRole('textbox', { name: 'Translation value' }), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'The file changed' });
    await user.click(within(dialog).getByRole('button', { name: /Reload and reapply/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'Translation value' })).toHaveValue('Hello!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContain(MSG.saved));
    const puts = fetch.mock.calls.filter(
      ([url, init]) => (init as RequestInit | undefined)?.method === 'PUT' && String(url).includes('/translation/'),
    );
    const last = JSON.parse(String((puts.at(-1)?.[1] as RequestInit).body)) as {
      data: TranslationData;
      versions: Record<string, string>;
    };
    expect(last.versions.en_GB).toBe('v9');
    expect(last.data.en_GB.TXT_HELLO).toBe('Hello!');
    expect(last.data.en_GB.TXT_OTHER).toBe('changed');
  });

  it('remembers the spell-check choice and follows the language direction', async () => {
    routes(
      { en_GB: { TXT_A: 'A' }, ar_SA: { TXT_A: 'ا' } },
      {
        'GET api/v1/translation/1/2': () =>
          jsonResponse({
            languageMode: 'TRANSLATION',
            defaultLanguage: 'en_GB',
            languages: ['en_GB', 'ar_SA'],
            data: { en_GB: { TXT_A: 'A' }, ar_SA: { TXT_A: 'ا' } },
            versions: { en_GB: 'v1', ar_SA: 'v2' },
          }),
        'GET api/v1/translation/1/2/status/ar_SA': () => jsonResponse({ language: 'ar_SA', keys: {} }),
        'GET api/v1/language/ar_SA': () => jsonResponse({ code: 'ar_SA', direction: 'rtl' }),
      },
    );
    const { user } = render({ language: 'ar_SA' });
    await user.click(await within(await keyList()).findByRole('option', { name: 'txt_a' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Translation value' })).toHaveAttribute('dir', 'rtl'),
    );
    expect(screen.getByRole('textbox', { name: 'Default language value' })).toHaveAttribute('dir', 'ltr');
    const spell = screen.getByRole('checkbox', { name: 'Spell check' });
    expect(spell).toBeChecked();
    await user.click(spell);
    expect(window.localStorage.getItem(SPELL_CHECK_STORAGE_KEY)).toBe('false');
    expect(screen.getByRole('textbox', { name: 'Translation value' })).toHaveAttribute('spellcheck', 'false');
  });

  it('shows the load error of the translation data', async () => {
    routes(undefined, {
      'GET api/v1/translation/1/2': () =>
        errorResponse(422, {
          errorCode: 'CONTENT_VALIDATION_FAILED',
          errorMessage: "Could not load translation data for lang 'fr_FR'",
        }),
    });
    render();
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.title)).toContain(MSG.loadFailed('en_GB')));
  });
});

describe('a list of 5,000 keys', () => {
  const keys = Array.from(
    { length: 5000 },
    (_, i) => `TXT_KEY_${String(i).padStart(5, '0')}_${i % 7 === 0 ? 'HOME' : 'PAGE'}`,
  );

  it('filters in well under a keystroke (timing logged, not asserted)', () => {
    const index = indexKeys(keys);
    const started = performance.now();
    let found = 0;
    for (const query of ['h', 'ho', 'hom', 'home', 'key_01', 'key_012']) {
      found = filterKeys(index, { search: query, type: 'TXT', status: '' }, () => 'COMPLETED').length;
    }
    const perKeystroke = (performance.now() - started) / 6;
    console.info(`translation key search over 5,000 keys: ${perKeystroke.toFixed(2)} ms per keystroke`);
    expect(found).toBeGreaterThan(0);
  });

  it('renders only the rows in view', async () => {
    const en = Object.fromEntries(keys.map((k) => [k, 'v']));
    routes({ en_GB: en, fr_FR: en });
    const { user } = render();
    const list = await keyList();
    await within(list).findByRole('option', { name: 'txt_key_00000_home' });
    expect(within(list).getAllByRole('option').length).toBeLessThan(60);
    expect(screen.getByText('5000 of 5000 keys')).toBeInTheDocument();
    const started = performance.now();
    await user.type(screen.getByRole('searchbox', { name: 'Search keys' }), '04999');
    console.info(`typing 5 characters into the search over 5,000 keys: ${(performance.now() - started).toFixed(0)} ms`);
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['txt_key_04999_page']);
  });
});
