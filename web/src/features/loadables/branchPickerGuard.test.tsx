/** The branch picker asks before switching while a loadable of the portal is being created. */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { overlay } from '../../core/overlayStore';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';
import { jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { renderRoute } from '../../test/render';
import BranchPicker from '../portal/pickers/BranchPicker';
import { resetNotifications, upsertNotification } from '../realtime/notificationsStore';
import { BranchChangeDialogHost } from './BranchChangeDialog';
import { useBranchGuardStore } from './branchGuard';
import { LOADABLE_MESSAGES as MSG } from './messages';

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser, admin: true } });
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo' },
    portal: { id: 2, name: 'Passenger Portal', supportLevel: 'FULL', engineType: 'UNIVERSAL' },
    branch: 'master',
    language: 'en_GB',
  });
  useBranchGuardStore.setState({ pending: null, hosts: 0 });
  resetNotifications();
  vi.spyOn(overlay, 'show').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  resetNotifications();
});

function render() {
  const fetch = mockFetch({
    'GET api/v1/portal_branch/allReferences/1/2': () =>
      jsonResponse({ allReferences: ['master', 'develop'], allTags: [], currentRef: 'master' }),
    'GET api/v1/portal/1/2/open': () =>
      jsonResponse({
        portal: { id: 2, domainId: 1, name: 'Passenger Portal', activeBranch: 'master' },
        branch: 'develop',
        settings: { engineType: 'UNIVERSAL', supportLevel: 'FULL', scope: 'FULL' },
        status: { branch: 'develop', changes: {}, aheadCount: 0, behindCount: 0 },
      }),
  });
  const utils = renderRoute(
    [
      {
        path: 'domain/:domain/portal/:portal/branch/:branch/:language/*',
        element: (
          <>
            <BranchPicker anchorEl={document.body} onClose={() => undefined} />
            <BranchChangeDialogHost />
          </>
        ),
      },
    ],
    '/domain/1/portal/2/branch/master/en_GB/loadables-create',
  );
  return { ...utils, fetch, user: userEvent.setup() };
}

const opened = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.some(([url]) => String(url).includes('/open'));

describe('branch switch while a loadable is being created', () => {
  beforeEach(() => {
    act(
      () =>
        void upsertNotification({
          id: 'GENERATE_LOADABLE-5',
          title: 'Generating loadable',
          details: '',
          status: 'PROGRESS',
          progress: 10,
          messageType: 'GENERATE_LOADABLE',
          data: { loadableId: 5, domainId: 1, portalId: 2 },
        }),
    );
  });

  it('Cancel keeps the branch', async () => {
    const { user, fetch } = render();
    await user.click(await screen.findByRole('button', { name: 'develop' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: MSG.branchChangeTitle })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: MSG.branchChangeTitle })).not.toBeInTheDocument());
    expect(opened(fetch)).toBe(false);
    expect(useSelectionStore.getState().branch).toBe('master');
  });

  it('Continue switches', async () => {
    const { user, fetch, router } = render();
    await user.click(await screen.findByRole('button', { name: 'develop' }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(opened(fetch)).toBe(true));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/2/branch/develop/en_GB/loadables-create'),
    );
  });
});
