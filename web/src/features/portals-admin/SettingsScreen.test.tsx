import type { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortalSettings } from '../../api/portal';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../core/selectionStore';
import { refreshWorkspaceViews } from '../../core/workspaceRefresh';
import { bodyOf, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { relativePathError, SETTINGS_MESSAGES } from './model';
import SettingsScreen from './SettingsScreen';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const settings: PortalSettings = {
  formatVersion: 1,
  name: 'Crew Portal',
  engineType: 'PORTAL_ENGINE',
  supportLevel: 'FULL',
  scope: 'FULL',
  type: 'CREW',
  oneMediaInterstitialSupported: false,
  condenseWidgetData: null,
  retainLanguageValuesOnCreate: null,
  languageSettings: {
    languages: ['en_GB', 'de_DE'],
    defaultLanguage: 'en_GB',
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
};

const pattern = '/domain/:domain/portal/:portal/branch/:branch/:language/settings';

function render(user = undefined as Parameters<typeof renderScreen>[3], opened = true) {
  // The selection chain (app/selection) has opened the portal on master.
  if (opened) useSelectionStore.setState({ portal: { id: 2, name: 'Crew Portal' }, branch: 'master' });
  const utils = renderScreen(SettingsScreen, pattern, '/domain/1/portal/2/branch/master/en_GB/settings', user);
  return { ...utils, user: userEvent.setup() };
}

describe('Portal Settings', () => {
  it('edits languages and the task runner and saves to the workspace', async () => {
    const fetch = mockFetch({
      'GET api/v1/settings/1/2': () => jsonResponse(settings),
      'PUT api/v1/settings/1/2': ({ init }) => jsonResponse(JSON.parse(String(init.body))),
    });
    const { user } = render();
    const save = await screen.findByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Engine type' })).toHaveTextContent('Portal engine');
    const languages = screen.getByRole('list', { name: 'Languages' });
    expect(within(languages).getByText('English (United Kingdom) · en_GB (default)')).toBeInTheDocument();

    const code = screen.getByLabelText('Language code');
    await user.type(code, 'english');
    expect(screen.getByText('Enter a language code like en_GB.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add language' })).toBeDisabled();
    await user.clear(code);
    await user.type(code, 'de_DE');
    expect(screen.getByText('The language is already in the list.')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, 'fr_FR');
    await user.click(screen.getByRole('button', { name: 'Add language' }));
    expect(within(languages).getByText(/fr_FR/)).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Default language' }));
    await user.click(await screen.findByRole('option', { name: /fr_FR/ }));
    // Removing de_DE (its chip's delete icon).
    const de = within(languages).getByText(/de_DE/).closest('.MuiChip-root') as HTMLElement;
    await user.click(within(de).getByTestId('CancelIcon'));
    expect(within(languages).queryByText(/de_DE/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Active' }));
    await user.type(screen.getByLabelText('Extension'), 'ts');
    await user.click(screen.getByRole('button', { name: 'Add extension' }));
    const output = screen.getByLabelText('Output path');
    await user.clear(output);
    await user.type(output, '../out');
    expect(screen.getByText('Enter a folder inside the portal (no leading /, no ..).')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(output);
    await user.type(output, 'dist');

    await user.click(save);
    expect(await screen.findByText('Settings saved to your workspace. Commit them to share them.')).toBeInTheDocument();
    const body = bodyOf(fetch, 'PUT api/v1/settings/1/2') as PortalSettings;
    expect(body.languageSettings.languages).toEqual(['en_GB', 'fr_FR']);
    expect(body.languageSettings.defaultLanguage).toBe('fr_FR');
    expect(body.taskRunnerSettings).toMatchObject({ active: true, extensions: ['.scss', '.ts'], outputPath: 'dist' });
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('says where the settings live and chooses the commit message rule (imported portal: kept by Portalwright)', async () => {
    const kept: PortalSettings = { ...settings, storedIn: 'PORTALWRIGHT', commitMessageRule: 'ANY_TEXT' };
    const fetch = mockFetch({
      'GET api/v1/settings/1/2': () => jsonResponse(kept),
      'PUT api/v1/settings/1/2': ({ init }) => jsonResponse(JSON.parse(String(init.body))),
    });
    const { user } = render();
    expect(await screen.findByText(/Settings are kept by Portalwright, not in the repository/)).toBeInTheDocument();
    const rule = screen.getByRole('combobox', { name: 'Commit messages' });
    expect(rule).toHaveTextContent('Any text, first line up to 200 characters');
    await user.click(rule);
    await user.click(await screen.findByRole('option', { name: /Letters, digits and spaces/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SETTINGS_MESSAGES.savedKept)).toBeInTheDocument();
    expect((bodyOf(fetch, 'PUT api/v1/settings/1/2') as PortalSettings).commitMessageRule).toBe('ALPHANUMERIC');
  });

  it('says the settings are in portal.json for a portal whose repository carries them', async () => {
    mockFetch({ 'GET api/v1/settings/1/2': () => jsonResponse({ ...settings, storedIn: 'REPOSITORY' }) });
    render();
    expect(await screen.findByText(/Settings are in portal.json, versioned with the branch/)).toBeInTheDocument();
  });

  it("shows the server's validation message", async () => {
    mockFetch({
      'GET api/v1/settings/1/2': () => jsonResponse(settings),
      'PUT api/v1/settings/1/2': () =>
        errorResponse(400, { errorMessage: 'languageBasePath must be a folder inside the portal' }),
    });
    const { user } = render();
    await user.type(await screen.findByLabelText('Language base path'), 'i18n');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not save the portal settings: languageBasePath must be a folder inside the portal',
    );
  });

  it('is read-only with portal_settings_read only, and refused without it', async () => {
    mockFetch({ 'GET api/v1/settings/1/2': () => jsonResponse(settings) });
    setDomainPermissions(1, [], ['portal_read']);
    const first = render(sampleUser);
    expect(screen.getByRole('alert')).toHaveTextContent('You do not have the right permission');
    first.unmount();
    setDomainPermissions(1, [], ['portal_settings_read']);
    render(sampleUser);
    expect(await screen.findByText(/changing them needs the permission to edit portal settings/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Language code')).not.toBeInTheDocument();
  });

  it('waits for the portal to be opened before reading the settings', async () => {
    const fetch = mockFetch({ 'GET api/v1/settings/1/2': () => jsonResponse(settings) });
    render(undefined, false);
    expect(screen.getByRole('progressbar', { name: 'Opening the portal' })).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    useSelectionStore.setState({ portal: { id: 2, name: 'Crew Portal' }, branch: 'master' });
    expect(await screen.findByRole('combobox', { name: 'Engine type' })).toHaveTextContent('Portal engine');
  });

  it('checks folder paths like the server', () => {
    expect(relativePathError('')).toBeNull();
    expect(relativePathError('a/b')).toBeNull();
    expect(relativePathError('/abs')).not.toBeNull();
    expect(relativePathError('a/../../b')).not.toBeNull();
    expect(relativePathError('.git/x')).not.toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Versions: a save carries the version it was based on (issue 8 item 0)

const withLanguages = (languages: string[]): PortalSettings => ({
  ...settings,
  languageSettings: { ...settings.languageSettings, languages },
});
const versioned = (body: PortalSettings, version: string) => jsonResponse(body, 200, { ETag: `"${version}"` });
const ifMatchOf = (fetch: ReturnType<typeof mockFetch>, n: number) => {
  // The settings saves (not the presence heartbeats).
  const puts = fetch.mock.calls.filter(([url, init]) => init?.method === 'PUT' && String(url).includes('/settings/'));
  return new Headers(puts[n]?.[1]?.headers).get('If-Match');
};
const fileChanged = () =>
  errorResponse(409, {
    errorCode: 'FILE_CHANGED',
    errorMessage:
      'Portal settings were changed since you opened them (by a reload, a revert, a branch switch or another save). Reload them, then apply your change again.',
    data: { path: 'portal.json', currentVersion: 'v2' },
  });

/** Renders the screen with a query client the test keeps (to refresh the workspace as the app does). */
function renderKept(): { client: QueryClient; user: ReturnType<typeof userEvent.setup> } {
  useSelectionStore.setState({
    domain: { id: 1, name: 'Ops' },
    portal: { id: 2, name: 'Crew Portal' },
    branch: 'master',
  });
  const { queryClient: client } = renderScreen(
    SettingsScreen,
    pattern,
    '/domain/1/portal/2/branch/master/en_GB/settings',
  );
  return { client, user: userEvent.setup() };
}

async function addLanguage(user: ReturnType<typeof userEvent.setup>, code: string) {
  await user.type(screen.getByLabelText('Language code'), code);
  await user.click(screen.getByRole('button', { name: 'Add language' }));
}

const languagesShown = () =>
  // hidden: also while a dialog makes the page inert
  within(screen.getByRole('list', { name: 'Languages', hidden: true }))
    .getAllByRole('listitem', { hidden: true })
    .map((chip) => chip.getAttribute('data-language'));

describe('Portal Settings versions', () => {
  it('saves with If-Match of the version it read, and the next save with the version the save answered', async () => {
    let current = { body: settings, version: 1 };
    const fetch = mockFetch({
      'GET api/v1/settings/1/2': () => versioned(current.body, `v${current.version}`),
      'PUT api/v1/settings/1/2': ({ init }) => {
        current = { body: JSON.parse(String(init.body)), version: current.version + 1 };
        return versioned(current.body, `v${current.version}`);
      },
    });
    const { user } = render();
    await screen.findByRole('button', { name: 'Save' });
    await addLanguage(user, 'fr_FR');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SETTINGS_MESSAGES.saved)).toBeInTheDocument();
    expect(ifMatchOf(fetch, 0)).toBe('"v1"');
    await addLanguage(user, 'it_IT');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(ifMatchOf(fetch, 1)).toBe('"v2"'));
  });

  it('on 409 FILE_CHANGED overwrites nothing, says so, and reloads and reapplies the edit on top', async () => {
    // B opened the settings at v1 (en_GB, de_DE); meanwhile A's fr_FR arrived in B's workspace (v2).
    let current = { body: settings, version: 'v1' };
    const fetch = mockFetch({
      'GET api/v1/settings/1/2': () => versioned(current.body, current.version),
      'PUT api/v1/settings/1/2': ({ init }) => {
        if (new Headers(init.headers).get('If-Match') !== `"${current.version}"`) return fileChanged();
        current = { body: JSON.parse(String(init.body)), version: 'v3' };
        return versioned(current.body, current.version);
      },
    });
    const { user } = render();
    await screen.findByRole('button', { name: 'Save' });
    current = { body: withLanguages(['en_GB', 'de_DE', 'fr_FR']), version: 'v2' };
    await addLanguage(user, 'it_IT');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: SETTINGS_MESSAGES.conflictTitle });
    expect(dialog).toHaveTextContent('Portal settings were changed since you opened them');
    expect(within(dialog).getByRole('list', { name: 'Your unsaved changes' })).toHaveTextContent(
      'Added language it_IT',
    );
    expect(current.body.languageSettings.languages).toEqual(['en_GB', 'de_DE', 'fr_FR']); // nothing overwritten
    expect(screen.queryByText(SETTINGS_MESSAGES.saved)).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: SETTINGS_MESSAGES.reloadAndReapply }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(languagesShown()).toEqual(['en_GB', 'de_DE', 'fr_FR', 'it_IT']);
    expect(screen.getByRole('status', { name: SETTINGS_MESSAGES.reappliedTitle })).toHaveTextContent(
      'Added language it_IT',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SETTINGS_MESSAGES.saved)).toBeInTheDocument();
    expect(ifMatchOf(fetch, 1)).toBe('"v2"');
    expect(current.body.languageSettings.languages).toEqual(['en_GB', 'de_DE', 'fr_FR', 'it_IT']);
  });

  it('Reload and discard shows the current settings without the edit', async () => {
    let current = { body: settings, version: 'v1' };
    mockFetch({
      'GET api/v1/settings/1/2': () => versioned(current.body, current.version),
      'PUT api/v1/settings/1/2': () => fileChanged(),
    });
    const { user } = render();
    await screen.findByRole('button', { name: 'Save' });
    current = { body: withLanguages(['en_GB', 'fr_FR']), version: 'v2' };
    await addLanguage(user, 'it_IT');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: SETTINGS_MESSAGES.conflictTitle });
    await user.click(within(dialog).getByRole('button', { name: SETTINGS_MESSAGES.reloadAndDiscard }));
    await waitFor(() => expect(languagesShown()).toEqual(['en_GB', 'fr_FR']));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('after a revert (the workspace refresh) shows the reverted file, so Save cannot re-apply the discarded edit', async () => {
    let current = { body: settings, version: 'v1' };
    mockFetch({
      'GET api/v1/settings/1/2': () => versioned(current.body, current.version),
      'PUT api/v1/settings/1/2': ({ init }) => {
        current = { body: JSON.parse(String(init.body)), version: 'v2' };
        return versioned(current.body, current.version);
      },
    });
    const { client, user } = renderKept();
    await screen.findByRole('button', { name: 'Save' });
    await addLanguage(user, 'fr_FR');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(SETTINGS_MESSAGES.saved)).toBeInTheDocument();
    expect(languagesShown()).toEqual(['en_GB', 'de_DE', 'fr_FR']);

    // Revert All puts portal.json back (v1 content, new version), then refreshes the views.
    current = { body: settings, version: 'v4' };
    await act(() => refreshWorkspaceViews(client, '1', '2'));
    await waitFor(() => expect(languagesShown()).toEqual(['en_GB', 'de_DE']));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('asks before replacing an unsaved edit when the file changed under it', async () => {
    let current = { body: settings, version: 'v1' };
    mockFetch({ 'GET api/v1/settings/1/2': () => versioned(current.body, current.version) });
    const { client, user } = renderKept();
    await screen.findByRole('button', { name: 'Save' });
    await addLanguage(user, 'it_IT');
    current = { body: withLanguages(['en_GB', 'fr_FR']), version: 'v2' }; // Reload Now brought A's commit
    await act(() => refreshWorkspaceViews(client, '1', '2'));
    const dialog = await screen.findByRole('dialog', { name: SETTINGS_MESSAGES.conflictTitle });
    expect(dialog).toHaveTextContent(SETTINGS_MESSAGES.changedWhileEditing);
    expect(languagesShown()).toEqual(['en_GB', 'de_DE', 'it_IT']); // the edit is still there
    await user.click(within(dialog).getByRole('button', { name: SETTINGS_MESSAGES.reloadAndReapply }));
    // de_DE was not removed by the user: what the file says now wins; it_IT is reapplied.
    await waitFor(() => expect(languagesShown()).toEqual(['en_GB', 'fr_FR', 'it_IT']));
  });
});
