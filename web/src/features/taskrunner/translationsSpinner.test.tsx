import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { TRANSLATION_MESSAGES } from '../translations/messages';
import TranslationsScreen from '../translations/TranslationsScreen';
import { clearTaskRunnerState, setTaskRunnerState } from './taskRunnerStore';

vi.mock('../widgets/richtext/RichTextEditor', () => ({
  RichTextEditor: (props: { value: string; ariaLabel: string }) => (
    <textarea aria-label={props.ariaLabel} value={props.value} readOnly />
  ),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  clearTaskRunnerState();
  useSelectionStore.setState({ ...initialSelectionState });
});

const SPINNER = 'Please wait while workspace tasks are being validated and run...';

describe('the translation manager spinner follows the task runner', () => {
  it('shows while the workspace tasks validate or run', async () => {
    expect(TRANSLATION_MESSAGES.pleaseWait).toBe(SPINNER);
    const data = { en_GB: { TXT_HELLO: 'Hello' } };
    mockFetch({
      'GET api/v1/translation/1/2': () =>
        jsonResponse({
          languageMode: 'TRANSLATION',
          defaultLanguage: 'en_GB',
          languages: ['en_GB'],
          data,
          versions: { en_GB: 'v1' },
        }),
      'GET api/v1/translation/1/2/status/en_GB': () =>
        jsonResponse({ language: 'en_GB', default: true, keys: { TXT_HELLO: 'OK' } }),
      'GET api/v1/language/en_GB': () => jsonResponse({ code: 'en_GB', direction: 'ltr' }),
    });
    useSelectionStore.setState({
      portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
      branch: 'master',
      permissions: [],
    });
    renderScreen(
      TranslationsScreen,
      '/domain/:domain/portal/:portal/branch/:branch/:language/translations',
      '/domain/1/portal/2/branch/master/en_GB/translations',
    );
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: TRANSLATION_MESSAGES.currentLanguage })).toBeInTheDocument(),
    );
    expect(screen.queryByRole('progressbar', { name: SPINNER })).toBeNull();
    act(() => setTaskRunnerState('1/2', { phase: 'VALIDATING' }));
    expect(screen.getByRole('progressbar', { name: SPINNER })).toBeInTheDocument();
    act(() => setTaskRunnerState('1/2', { phase: 'RUNNING' }));
    expect(screen.getByRole('progressbar', { name: SPINNER })).toBeInTheDocument();
    act(() => setTaskRunnerState('1/2', { phase: 'STABLE' }));
    expect(screen.queryByRole('progressbar', { name: SPINNER })).toBeNull();
  });
});
