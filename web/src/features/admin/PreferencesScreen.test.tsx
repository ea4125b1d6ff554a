import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import PreferencesScreen from './PreferencesScreen';
import { bodyOf } from '../../test/helpers';
import { renderScreen } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

function serve(update: () => Response = () => jsonResponse({})) {
  let preference = { id: 3, bannerStatus: 'BANNER_OFF', bannerMessage: 'Old text' };
  return mockFetch({
    'GET api/v1/preference/all': () => jsonResponse([preference]),
    'PUT api/v1/preference/update': ({ init }) => {
      const response = update();
      if (response.ok) preference = JSON.parse(String(init.body));
      return response;
    },
  });
}

const render = () => {
  renderScreen(PreferencesScreen, '/admin/preferences', '/admin/preferences');
  return userEvent.setup();
};

describe('System Preferences', () => {
  it('loads the banner settings; Save is disabled until something changes', async () => {
    serve();
    render();
    expect(await screen.findByLabelText('Banner message')).toHaveValue('Old text');
    expect(screen.getByRole('switch', { name: 'Show the system banner' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('turns the banner on and saves {id, bannerStatus, bannerMessage}', async () => {
    const fetch = serve();
    const user = render();
    const message = await screen.findByLabelText('Banner message');
    await user.click(screen.getByRole('switch', { name: 'Show the system banner' }));
    await user.clear(message);
    await user.type(message, 'Maintenance tonight{Enter}Second line');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Preferences saved.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'PUT api/v1/preference/update')).toEqual({
      id: 3,
      bannerStatus: 'BANNER_ON',
      bannerMessage: 'Maintenance tonight\nSecond line',
    });
    // The preference is fetched again (the banner shares the query).
    await waitFor(() =>
      expect(fetch.mock.calls.filter(([url]) => String(url) === 'api/v1/preference/all').length).toBe(2),
    );
  });

  it('refuses a message over 500 characters', async () => {
    serve();
    const user = render();
    const message = await screen.findByLabelText('Banner message');
    await user.clear(message);
    await user.click(message);
    await user.paste('x'.repeat(501));
    expect(screen.getByText('The banner message must be at most 500 characters.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it("shows the server's validation message", async () => {
    serve(() => errorResponse(400, { errorMessage: 'The banner message is not allowed.' }));
    const user = render();
    await user.type(await screen.findByLabelText('Banner message'), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The banner message is not allowed.');
  });

  it('tells a non-admin who typed the URL that they lack the permission, and asks nothing', () => {
    const fetch = serve();
    renderScreen(PreferencesScreen, '/admin/preferences', '/admin/preferences', sampleUser);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'You do not have the right permission to access to this section. Please contact your Administrator',
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
