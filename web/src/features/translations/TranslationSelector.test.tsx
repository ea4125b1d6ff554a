import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranslationData } from '../../api/translations';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { ToastStack } from '../../ui/ToastStack';
import { clearToasts, useToastStore } from '../../core/toastService';
import { bodyOf, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { TRANSLATION_MESSAGES as MSG } from './messages';
import { postTranslationUpdated, TranslationSelector, translationUpdatedMessage } from './TranslationSelector';

vi.mock('../widgets/richtext/RichTextEditor', () => ({
  RichTextEditor: (props: { value: string; onChange?: (v: string) => void; ariaLabel: string }) => (
    <textarea aria-label={props.ariaLabel} value={props.value} onChange={(e) => props.onChange?.(e.target.value)} />
  ),
}));

beforeEach(() => {
  clearToasts();
  signIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const data: TranslationData = {
  en_GB: { TXT_HELLO: 'Hello', IMG_LOGO: '/logo.png', LNK_HOME: 'https://x.org' },
  fr_FR: { TXT_HELLO: 'Bonjour' },
};

function routes(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET api/v1/translation/1/2': () =>
      jsonResponse({
        languageMode: 'TRANSLATION',
        defaultLanguage: 'en_GB',
        languages: ['en_GB', 'fr_FR'],
        data,
        versions: { en_GB: 'v1', fr_FR: 'v2' },
      }),
    'PUT api/v1/translation/1/2': () => jsonResponse({ versions: { en_GB: 'v1', fr_FR: 'v3' } }),
    ...extra,
  });
}

function Harness({ onPreview, initial = '' }: { onPreview: (k: string, v: string) => void; initial?: string }) {
  const [key, setKey] = useState(initial);
  return (
    <>
      <TranslationSelector domain={1} portal={2} language="fr_FR" value={key} onChange={setKey} onPreview={onPreview} />
      <output aria-label="chosen">{key}</output>
      <ToastStack />
    </>
  );
}

describe('TranslationSelector', () => {
  it('shows nothing selected, searches keys and picks one', async () => {
    routes();
    const user = userEvent.setup();
    renderWithProviders(<Harness onPreview={vi.fn()} />);
    const box = screen.getByRole('combobox', { name: 'Translation key' });
    expect(box).toHaveValue(MSG.nothingSelected);
    expect(screen.getByRole('button', { name: 'Edit Translation' })).toBeDisabled();
    await user.clear(box);
    await user.type(box, 'hel');
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['txt_hello']);
    await user.click(within(listbox).getByRole('option', { name: 'txt_hello' }));
    expect(screen.getByRole('status', { name: 'chosen' })).toHaveTextContent('TXT_HELLO');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Translation' })).toBeEnabled());
  });

  it('previews every edit at once, restores the original on Cancel', async () => {
    const fetch = routes();
    const user = userEvent.setup();
    const preview = vi.fn();
    renderWithProviders(<Harness onPreview={preview} initial="TXT_HELLO" />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Translation' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Edit Translation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Translation' });
    const field = within(dialog).getByRole('textbox', { name: 'Translation value' });
    expect(field).toHaveValue('Bonjour');
    await user.type(field, '!');
    expect(preview).toHaveBeenLastCalledWith('TXT_HELLO', 'Bonjour!');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(preview).toHaveBeenLastCalledWith('TXT_HELLO', 'Bonjour');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'PUT')).toBe(false);
  });

  it('saves through the save-all PUT on Save', async () => {
    const fetch = routes();
    const user = userEvent.setup();
    renderWithProviders(<Harness onPreview={vi.fn()} initial="TXT_HELLO" />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Translation' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Edit Translation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Translation' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Translation value' }), ' tout le monde');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(fetch, 'PUT api/v1/translation/1/2')).toEqual({
      data: { ...data, fr_FR: { TXT_HELLO: 'Bonjour tout le monde' } },
      versions: { en_GB: 'v1', fr_FR: 'v2' },
    });
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain(MSG.saved);
  });

  it('offers the conflict dialog on a stale version', async () => {
    routes({ 'PUT api/v1/translation/1/2': () => errorResponse(409, { errorCode: 'FILE_CHANGED' }) });
    const user = userEvent.setup();
    renderWithProviders(<Harness onPreview={vi.fn()} initial="TXT_HELLO" />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Translation' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Edit Translation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Translation' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('dialog', { name: 'The file changed' })).toBeInTheDocument();
  });

  it('cannot edit without translation_write', async () => {
    routes();
    signIn({ ...sampleUser, admin: false });
    useSelectionStore.setState({ permissions: ['translation_read'] });
    renderWithProviders(<Harness onPreview={vi.fn()} initial="TXT_HELLO" />);
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Translation key' })).toHaveValue('txt_hello'));
    expect(screen.getByRole('button', { name: 'Edit Translation' })).toBeDisabled();
  });
});

describe('postTranslationUpdated', () => {
  it("posts the engine's JSON string message to the sandboxed frame (target '*': an opaque origin)", () => {
    const postMessage = vi.fn();
    const frame = { contentWindow: { postMessage } } as unknown as HTMLIFrameElement;
    postTranslationUpdated(frame, 'TXT_HELLO', '<p>Hi</p>');
    expect(postMessage).toHaveBeenCalledWith(
      '{"type":"translation_updated","payload":{"key":"TXT_HELLO","value":"<p>Hi</p>"}}',
      '*',
    );
    expect(JSON.parse(translationUpdatedMessage('K', 'v', 'fr_FR'))).toEqual({
      type: 'translation_updated',
      payload: { key: 'K', value: 'v', language: 'fr_FR' },
    });
    expect(() => postTranslationUpdated(null, 'K', 'v')).not.toThrow();
  });
});
