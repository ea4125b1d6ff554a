import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortalSettings } from '../../api/portal';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../app/selection/selectionStore';
import { errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { bodyOf, renderAdminScreen } from '../admin/testing';
import SettingsScreen, { relativePathError } from './SettingsScreen';

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
  languageSettings: {
    languages: ['en_GB', 'de_DE'],
    defaultLanguage: 'en_GB',
    languageMode: 'MULTILANGUAGE',
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

function render(user = undefined as Parameters<typeof renderAdminScreen>[3], opened = true) {
  // The selection chain (app/selection) has opened the portal on master.
  if (opened) useSelectionStore.setState({ portal: { id: 2, name: 'Crew Portal' }, branch: 'master' });
  const utils = renderAdminScreen(SettingsScreen, pattern, '/domain/1/portal/2/branch/master/en_GB/settings', user);
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
    expect(screen.getByRole('combobox', { name: 'Engine type' })).toHaveTextContent('PORTAL_ENGINE');
    const languages = screen.getByRole('list', { name: 'Languages' });
    expect(within(languages).getByText('en_GB (default)')).toBeInTheDocument();

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
    expect(within(languages).getByText('fr_FR')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Default language' }));
    await user.click(await screen.findByRole('option', { name: 'fr_FR' }));
    // Removing de_DE (its chip's delete icon).
    const de = within(languages).getByText('de_DE').closest('.MuiChip-root') as HTMLElement;
    await user.click(within(de).getByTestId('CancelIcon'));
    expect(within(languages).queryByText('de_DE')).not.toBeInTheDocument();

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
    expect(await screen.findByText(/changing them needs portal_settings_write/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Language code')).not.toBeInTheDocument();
  });

  it('waits for the portal to be opened before reading the settings', async () => {
    const fetch = mockFetch({ 'GET api/v1/settings/1/2': () => jsonResponse(settings) });
    render(undefined, false);
    expect(screen.getByRole('progressbar', { name: 'Opening the portal' })).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
    useSelectionStore.setState({ portal: { id: 2, name: 'Crew Portal' }, branch: 'master' });
    expect(await screen.findByRole('combobox', { name: 'Engine type' })).toHaveTextContent('PORTAL_ENGINE');
  });

  it('checks folder paths like the server', () => {
    expect(relativePathError('')).toBeNull();
    expect(relativePathError('a/b')).toBeNull();
    expect(relativePathError('/abs')).not.toBeNull();
    expect(relativePathError('a/../../b')).not.toBeNull();
    expect(relativePathError('.git/x')).not.toBeNull();
  });
});
