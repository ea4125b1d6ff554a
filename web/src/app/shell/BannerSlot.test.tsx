import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { jsonResponse, loginResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderWithProviders } from '../../test/render';
import { useSessionStore } from '../../core/sessionStore';
import { isBannerOn } from '../../core/banner';
import { BannerSlot, bannerMessage } from './BannerSlot';

beforeEach(() => {
  storeTokens(loginResponse());
  useSessionStore.setState({ status: 'loggedIn', user: sampleUser });
});
afterEach(() => vi.unstubAllGlobals());

function serve(bannerStatus: string, message: string) {
  return mockFetch({
    'GET api/v1/preference/all': () => jsonResponse([{ id: 1, bannerStatus, bannerMessage: message }]),
  });
}

describe('banner', () => {
  it('shows the message for BANNER_ON', async () => {
    serve('BANNER_ON', 'Maintenance at 18:00');
    renderWithProviders(<BannerSlot />);
    expect(await screen.findByRole('status', { name: 'System banner' })).toHaveTextContent('Maintenance at 18:00');
  });

  it("also accepts 'ON'", () => {
    expect(isBannerOn('ON')).toBe(true);
    expect(isBannerOn('BANNER_ON')).toBe(true);
    expect(isBannerOn('BANNER_OFF')).toBe(false);
    expect(isBannerOn('OFF')).toBe(false);
    expect(isBannerOn(null)).toBe(false);
  });

  it('is hidden for BANNER_OFF, a blank message and no preference', async () => {
    expect(
      bannerMessage([{ id: 1, bannerStatus: 'BANNER_ON', bannerMessage: '  ', updatedAt: '', updatedBy: '' }]),
    ).toBeNull();
    expect(bannerMessage([])).toBeNull();
    const fetch = serve('BANNER_OFF', 'Not shown');
    renderWithProviders(<BannerSlot />);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await Promise.resolve();
    expect(screen.queryByText('Not shown')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('renders the message as text, never as HTML', async () => {
    serve('BANNER_ON', '<b>bold</b><img src=x onerror="alert(1)">');
    renderWithProviders(<BannerSlot />);
    const banner = await screen.findByRole('status', { name: 'System banner' });
    expect(banner).toHaveTextContent('<b>bold</b><img src=x onerror="alert(1)">');
    expect(banner.querySelector('b, img')).toBeNull();
  });

  it('asks nothing while signed out', () => {
    useSessionStore.setState({ status: 'loggedOut', user: null });
    const fetch = serve('BANNER_ON', 'x');
    renderWithProviders(<BannerSlot />);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("shows the operator's information message as text", async () => {
    mockFetch({
      'GET api/v1/preference/all': () => jsonResponse([{ id: 1, bannerStatus: 'BANNER_OFF', bannerMessage: '' }]),
      'GET api/v1/config/infoMessage': () => jsonResponse({ message: 'Crew portal freeze <b>Friday</b>' }),
    });
    renderWithProviders(<BannerSlot />);
    const note = await screen.findByRole('note', { name: 'Information' });
    expect(note).toHaveTextContent('Crew portal freeze <b>Friday</b>');
    expect(note.querySelector('b')).toBeNull();
    expect(screen.queryByRole('status', { name: 'System banner' })).not.toBeInTheDocument();
  });
});
