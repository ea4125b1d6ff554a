import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProbeConfig } from '../../api/types';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { renderWithProviders } from '../../test/render';
import { useSessionStore } from '../../core/sessionStore';
import { releaseDocumentation, VersionDialog } from './VersionDialog';

const config = (extra: Partial<ProbeConfig> = {}): ProbeConfig => ({
  ws: { host: '' },
  documentation: [],
  legalDocs: [],
  links: [],
  uploadFilter: { image: [] },
  ...extra,
});

beforeEach(() => {
  mockFetch({
    'GET version.json': () => jsonResponse({ version: '3.4.10' }),
    'GET api/v1/config/backend-version': () => new Response('3.4.10.42', { status: 200 }),
  });
});
afterEach(() => {
  useSessionStore.setState({ probeConfig: null });
  vi.unstubAllGlobals();
});

describe('release version dialog', () => {
  it('links the release documentation of the probe configuration', async () => {
    useSessionStore.setState({
      probeConfig: config({ releaseDocumentation: { title: 'Release notes 3.4', url: 'https://docs.example/3.4' } }),
    });
    renderWithProviders(<VersionDialog open onClose={() => undefined} />);
    const link = await screen.findByRole('link', { name: 'Release notes 3.4' });
    expect(link).toHaveAttribute('href', 'https://docs.example/3.4');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('falls back to a release entry of the documentation menu, and shows no link without one', () => {
    const notes = { title: 'Change Log', url: 'api/v1/document/usr/changelog' };
    expect(releaseDocumentation(config({ documentation: [{ title: 'User Guide', url: 'u' }, notes] }))).toEqual(notes);
    expect(releaseDocumentation(config({ documentation: [{ title: 'User Guide', url: 'u' }] }))).toBeNull();
    expect(releaseDocumentation(null)).toBeNull();
    useSessionStore.setState({ probeConfig: config() });
    renderWithProviders(<VersionDialog open onClose={() => undefined} />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
