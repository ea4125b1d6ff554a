/** The screen with the real (TipTap) rich-text editor. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { bodyOf, called, jsonResponse, mockFetch } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import TranslationsScreen from './TranslationsScreen';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

/** The manager of the Crew Portal (domain 1, portal 2) in `language`. */
function openManager(language: string) {
  useSelectionStore.setState({
    portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    branch: 'master',
  });
  renderScreen(
    TranslationsScreen,
    '/domain/:domain/portal/:portal/branch/:branch/:language/translations',
    `/domain/1/portal/2/branch/master/${language}/translations`,
  );
}

describe('Translation manager with the rich-text editor', () => {
  it('writes ar_SA right to left; opening a plain text value does not mark it unsaved', async () => {
    mockFetch({
      'GET api/v1/translation/1/2': () =>
        jsonResponse({
          languageMode: 'TRANSLATION',
          defaultLanguage: 'en_GB',
          languages: ['en_GB', 'ar_SA'],
          data: { en_GB: { TXT_A: 'Hello' }, ar_SA: { TXT_A: 'مرحبا' } },
          versions: { en_GB: 'v1', ar_SA: 'v2' },
        }),
      'GET api/v1/translation/1/2/status/ar_SA': () =>
        jsonResponse({ language: 'ar_SA', default: false, keys: { TXT_A: { status: 'COMPLETED', reason: '' } } }),
      // No language service answer: the local rtl list decides.
      'GET api/v1/language/ar_SA': () => jsonResponse({ errorMessage: 'Failed to load language ar_SA' }, 404),
    });
    openManager('ar_SA');
    const user = userEvent.setup();
    const list = await screen.findByRole('listbox', { name: 'Translation keys' });
    await user.click(await within(list).findByRole('option', { name: 'txt_a' }));
    const editor = await screen.findByRole('textbox', { name: 'Translation value' });
    expect(editor).toHaveAttribute('dir', 'rtl');
    await waitFor(() => expect(editor).toHaveTextContent('مرحبا'));
    const fallback = await screen.findByRole('textbox', { name: 'Default language value' });
    expect(fallback).toHaveAttribute('dir', 'ltr');
    expect(fallback).toHaveAttribute('contenteditable', 'false');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('Enter on a key chosen with the arrows puts the focus in its editor; Ctrl+S saves', async () => {
    const fetch = mockFetch({
      'GET api/v1/translation/1/2': () =>
        jsonResponse({
          languageMode: 'TRANSLATION',
          defaultLanguage: 'en_GB',
          languages: ['en_GB'],
          data: { en_GB: { TXT_A: 'Hello', TXT_B: 'Bye' } },
          versions: { en_GB: 'v1' },
        }),
      'GET api/v1/translation/1/2/status/en_GB': () => jsonResponse({ language: 'en_GB', default: true, keys: {} }),
      'GET api/v1/language/en_GB': () => jsonResponse({ errorMessage: 'none' }, 404),
      'PUT api/v1/translation/1/2': () => jsonResponse({ versions: { en_GB: 'v2' } }),
    });
    openManager('en_GB');
    const user = userEvent.setup();
    const list = await screen.findByRole('listbox', { name: 'Translation keys' });
    list.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(within(list).getByRole('option', { name: 'txt_b' })).toHaveAttribute('aria-selected', 'true');
    expect(list).toHaveFocus();
    await user.keyboard('{Enter}');
    const editor = await screen.findByRole('textbox', { name: 'Translation value' });
    await waitFor(() => expect(editor).toHaveFocus());
    await waitFor(() => expect(editor).toHaveTextContent('Bye'));

    // Nothing changed: Ctrl+S sends nothing. Changed: Ctrl+S saves.
    await user.keyboard('{Control>}s{/Control}');
    expect(called(fetch, 'PUT api/v1/translation/1/2')).toBe(false);
    await user.type(editor, '!');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    await user.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(bodyOf(fetch, 'PUT api/v1/translation/1/2')).toMatchObject({ data: { en_GB: { TXT_B: 'Bye!' } } });
  });
});
