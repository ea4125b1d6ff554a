import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderRoute } from '../../test/render';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import LivePreviewUnstableScreen, { backToDashboardPath } from './LivePreviewUnstableScreen';

const none = { domain: null, portal: null, branch: null, language: null };

beforeEach(() => useSelectionStore.setState({ ...initialSelectionState }));

describe('error/live-preview-unstable', () => {
  it('Back to Dashboard goes to the portal dashboard of the selection', async () => {
    useSelectionStore.setState({
      domain: { id: 1, name: 'Demo Airline' },
      portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'UNIVERSAL', scope: 'full' },
      branch: 'feature/summer',
      language: 'fr_FR',
    });
    const { router } = renderRoute(
      [{ path: '*', element: <LivePreviewUnstableScreen /> }],
      '/error/live-preview-unstable',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Back to Dashboard' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/2/branch/feature:summer/fr_FR/dashboard'),
    );
  });

  it('takes the portal from the query, else the domain dashboard, else the root', () => {
    expect(backToDashboardPath(new URLSearchParams('domain=3&portal=4&branch=dev&language=en_GB'), none)).toBe(
      '/domain/3/portal/4/branch/dev/en_GB/dashboard',
    );
    expect(backToDashboardPath(new URLSearchParams(''), { ...none, domain: '3' })).toBe('/domain/3/dashboard');
    expect(backToDashboardPath(new URLSearchParams(''), none)).toBe('/');
  });
});
