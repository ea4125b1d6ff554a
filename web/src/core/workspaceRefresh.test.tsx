import { useQuery } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../api/authStorage';
import { errorResponse, jsonResponse, loginResponse, mockFetch } from '../test/helpers';
import { renderWithProviders } from '../test/render';
import { createQueryClient } from '../core/queryClient';
import { initialSessionState, useSessionStore } from './sessionStore';
import { usePortalErrorStore } from './portalError';
import { initialSelectionState, useSelectionStore } from './selectionStore';
import { isWorkspaceQueryKey, refreshWorkspaceViews, useWorkspaceEpoch, workspaceChanged } from './workspaceRefresh';
import { portalKeys } from '../api/portal';

const opened = (languages: string[]) => ({
  portal: { id: 2, name: 'Crew Portal', scope: 'FULL', type: 'CREW', status: 'active', activeBranch: 'master' },
  branch: 'master',
  settings: {
    engineType: 'PORTAL_ENGINE',
    supportLevel: 'FULL',
    scope: 'FULL',
    languageSettings: { languages, defaultLanguage: 'en_GB', languageMode: 'MULTILANGUAGE' },
  },
  settingsVersion: 'v2',
  status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
});

beforeEach(() => {
  storeTokens(loginResponse());
  useSessionStore.setState({ ...initialSessionState, status: 'loggedIn' });
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Ops' },
    portal: { id: 2, name: 'Crew Portal' },
    branch: 'master',
    language: 'de_DE',
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  usePortalErrorStore.setState({ error: null });
});

/** Shows the workspace's settings the way a screen would: a query under the workspace key. */
function SettingsProbe({ read }: { read: () => Promise<string[]> }) {
  const q = useQuery({ queryKey: portalKeys.settings(1, 2, 'master'), queryFn: read });
  return <p>languages: {q.data?.join(', ') ?? '…'}</p>;
}

describe('workspace refresh', () => {
  it('knows the keys derived from a workspace', () => {
    expect(isWorkspaceQueryKey(['portal', '1', '2', 'local-changes'], 1, 2)).toBe(true);
    expect(isWorkspaceQueryKey(portalKeys.settings(1, 2, 'feature/x'), '1', '2')).toBe(true);
    expect(isWorkspaceQueryKey(['portals-admin', '1', 'portal', '2', 'branches'], 1, 2)).toBe(true);
    expect(isWorkspaceQueryKey(['portal', '1', '3', 'local-changes'], 1, 2)).toBe(false);
    expect(isWorkspaceQueryKey(['portals-admin', '1', 'portals'], 1, 2)).toBe(false);
    expect(isWorkspaceQueryKey(['portals', '1', 'categorized'], 1, 2)).toBe(false);
    expect(isWorkspaceQueryKey(['preferences'], 1, 2)).toBe(false);
  });

  it('reloads the views on screen, drops the others, leaves other portals alone and moves the epoch on', async () => {
    const client = createQueryClient();
    let languages = ['en_GB'];
    const read = vi.fn(async () => languages);
    renderWithProviders(<SettingsProbe read={read} />, client);
    expect(await screen.findByText('languages: en_GB')).toBeInTheDocument();
    client.setQueryData(['portal', '1', '2', 'local-commits'], ['old']); // not on screen
    client.setQueryData(['portals-admin', '1', 'portal', '2', 'branches'], ['master']); // not on screen
    client.setQueryData(['portal', '1', '3', 'local-commits'], ['other portal']);
    const epoch = useWorkspaceEpoch.getState().epoch;

    // Within the 30 s staleTime a screen would keep its copy; the refresh reaches it anyway.
    languages = ['en_GB', 'fr_FR'];
    await act(() => refreshWorkspaceViews(client, 1, 2));
    expect(await screen.findByText('languages: en_GB, fr_FR')).toBeInTheDocument();
    expect(read).toHaveBeenCalledTimes(2);
    expect(client.getQueryData(['portal', '1', '2', 'local-commits'])).toBeUndefined();
    expect(client.getQueryData(['portals-admin', '1', 'portal', '2', 'branches'])).toBeUndefined();
    expect(client.getQueryData(['portal', '1', '3', 'local-commits'])).toEqual(['other portal']);
    expect(useWorkspaceEpoch.getState().epoch).toBe(epoch + 1);
  });

  it('with reopen, opens the workspace first, then refreshes; the selection takes the new settings', async () => {
    const order: string[] = [];
    const fetch = mockFetch({
      'GET api/v1/portal/1/2/open': () => {
        order.push('open');
        return jsonResponse(opened(['en_GB', 'de_DE', 'fr_FR']));
      },
    });
    const client = createQueryClient();
    vi.spyOn(client, 'invalidateQueries').mockImplementation(async () => {
      order.push('refresh');
    });
    const ok = await workspaceChanged(client, { domainId: 1, portalId: 2, branch: 'master' }, { reopen: true });
    expect(ok).toBe(true);
    expect(order).toEqual(['open', 'refresh']);
    expect(String(fetch.mock.calls[0][0])).toBe('api/v1/portal/1/2/open?branch=master');
    const state = useSelectionStore.getState();
    expect(state.portalInfo?.languages).toEqual(['en_GB', 'de_DE', 'fr_FR']);
    expect(state.branch).toBe('master');
    expect(state.language).toBe('de_DE'); // still a language of the portal: kept
  });

  it('shows the portal error screen (with Reset for git codes) when reopening fails', async () => {
    mockFetch({
      'GET api/v1/portal/1/2/open': () =>
        errorResponse(409, { errorCode: 'GIT_LOCAL_COMMITS_ERROR', errorMessage: 'You have local commits.' }),
    });
    const ok = await workspaceChanged(
      createQueryClient(),
      { domainId: 1, portalId: 2, branch: 'master' },
      { reopen: true },
    );
    expect(ok).toBe(false);
    const { error } = usePortalErrorStore.getState();
    expect(error).toMatchObject({
      type: 'PORTAL_OPENING_FAILED',
      message: 'You have local commits.',
      branch: 'master',
    });
    expect(useSelectionStore.getState().portal).toBeNull();
  });

  it('leaves a deleted portal to the portal-gone listener (no error screen)', async () => {
    mockFetch({
      'GET api/v1/portal/1/2/open': () =>
        errorResponse(404, { errorCode: 'PORTAL_NOT_FOUND', errorMessage: 'Failed to open Portal' }),
    });
    await workspaceChanged(createQueryClient(), { domainId: 1, portalId: 2, branch: 'master' }, { reopen: true });
    await waitFor(() => expect(usePortalErrorStore.getState().error).toBeNull());
  });
});
