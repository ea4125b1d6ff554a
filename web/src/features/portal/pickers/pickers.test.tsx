import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { overlay } from '../../../core/overlayStore';
import { storeTokens } from '../../../api/authStorage';
import type { Category, Portal } from '../../../api/portal';
import { initialSelectionState, useSelectionStore } from '../../../core/selectionStore';
import { useSessionStore } from '../../../core/sessionStore';
import { clearToasts, useToastStore } from '../../../core/toastService';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../../test/helpers';
import { renderRoute } from '../../../test/render';
import { branchLabel } from '../format';
import BranchPicker, { BAD_BRANCH_MESSAGE, DISCARD_AND_SWITCH } from './BranchPicker';
import LanguagePicker from './LanguagePicker';
import PortalPicker from './PortalPicker';
import { portalTree } from './tree';

const p = (id: number, name: string, lastModified: string, extra: Partial<Portal> = {}): Portal => ({
  id,
  domainId: 1,
  name,
  type: 'CREW',
  scope: 'FULL',
  status: 'active',
  categoryId: 1,
  category: 'Crew Portals',
  activeBranch: 'master',
  url: '',
  source: '',
  createdAt: '',
  lastModified,
  deactivated: false,
  ...extra,
});

const categories: Category[] = [
  {
    id: 0,
    name: 'Inactive Portals',
    deactivated: true,
    children: [p(9, 'Old Portal', '2026-01-01T00:00:00Z', { status: 'inactive', deactivated: true })],
  },
  {
    id: 2,
    name: 'Passenger Portals',
    deactivated: false,
    children: [p(2, 'Passenger Portal', '2026-01-01T00:00:00Z', { type: 'PASSENGER', scope: 'MICROSITE' })],
  },
  {
    id: 1,
    name: 'Crew Portals',
    deactivated: false,
    children: [
      p(1, 'Zulu Crew', '2026-03-01T00:00:00Z'),
      p(3, 'Alpha Crew', '2026-01-01T00:00:00Z', { scope: 'CAPTIVE' }),
    ],
  },
  { id: 4, name: 'Empty', deactivated: true, children: [] },
];

const toastTexts = () => useToastStore.getState().toasts.map((t) => [t.type, t.message]);
const anchor = () => document.body;

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser, admin: true } });
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo Airline' },
    portal: { id: 1, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    portalInfo: {
      type: 'CREW',
      status: 'active',
      category: 'Crew Portals',
      activeBranch: 'master',
      lastModified: '',
      languages: ['en_GB', 'fr_FR'],
      defaultLanguage: 'en_GB',
      languageMode: 'TRANSLATION',
      scope: 'FULL',
      engineType: 'PORTAL_ENGINE',
      supportLevel: 'FULL',
    },
    branch: 'master',
    language: 'en_GB',
  });
  clearToasts();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const PATH = 'domain/:domain/portal/:portal/branch/:branch/:language/*';
function renderPicker(element: React.ReactNode, at = '/domain/1/portal/1/branch/master/en_GB/settings') {
  return renderRoute(
    [
      { path: PATH, element },
      { path: '*', element: null },
    ],
    at,
  );
}

describe('portal tree', () => {
  it("groups by category, alphabetically, 'Inactive Portals' last, empty categories dropped", () => {
    const tree = portalTree(categories, 'alphabetical');
    expect(tree.map((c) => c.name)).toEqual(['Crew Portals', 'Passenger Portals', 'Inactive Portals']);
    expect(tree[0].children.map((c) => c.name)).toEqual(['Alpha Crew', 'Zulu Crew']);
  });
  it('sorts by last modification, newest first', () => {
    expect(portalTree(categories, 'lastModified')[0].children.map((c) => c.name)).toEqual(['Zulu Crew', 'Alpha Crew']);
  });
});

describe('Select Portal', () => {
  it('shows the tree with a sort toggle, marks inactive portals and opens the chosen one', async () => {
    mockFetch({ 'GET api/v1/portal/1/categorized': () => jsonResponse(categories) });
    const { router } = renderPicker(<PortalPicker anchorEl={anchor()} onClose={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Portals' });
    const names = [...list.querySelectorAll('.MuiListItemText-primary')].map((e) => e.textContent);
    expect(names).toEqual(['Alpha Crew', 'Zulu Crew', 'Passenger Portal', 'Old Portal']);
    expect(screen.getByText('Old Portal')).toHaveStyle({ textDecoration: 'line-through' });
    expect(screen.getByText('Inactive Portals').closest('[data-deactivated]')).not.toBeNull();
    expect(screen.getByLabelText('Legend')).toHaveTextContent(/Crew.*Passenger.*Full.*Microsite.*Captive/);
    await userEvent.click(screen.getByRole('button', { name: 'Last Modified' }));
    const sorted = [...list.querySelectorAll('.MuiListItemText-primary')].map((e) => e.textContent);
    expect(sorted.slice(0, 2)).toEqual(['Zulu Crew', 'Alpha Crew']);
    await userEvent.click(screen.getByRole('button', { name: /^Alpha Crew/ }));
    expect(router.state.location.pathname).toBe('/domain/1/portal/3');
  });
});

describe('Select Branch', () => {
  const long = `feature/${'x'.repeat(50)}`;
  it('cuts labels to 40 characters and refuses a name with special characters', async () => {
    expect(branchLabel(long)).toBe(`${long.slice(0, 40)}…`);
    expect(branchLabel('master')).toBe('master');
    const fetch = mockFetch({
      'GET api/v1/portal_branch/allReferences/1/1': () =>
        jsonResponse({ allReferences: ['master', long, 'bad name!'], allTags: [], currentRef: 'master' }),
    });
    renderPicker(<BranchPicker anchorEl={anchor()} onClose={() => undefined} />);
    expect(await screen.findByText(`${long.slice(0, 40)}…`)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'bad name!' }));
    expect(toastTexts()).toEqual([['WARNING', BAD_BRANCH_MESSAGE]]);
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/open'))).toBe(false);
  });

  it("labels a branch the git host deleted 'deleted on the git host'", async () => {
    mockFetch({
      'GET api/v1/portal_branch/allReferences/1/1': () =>
        jsonResponse({
          allReferences: ['master', 'summer'],
          allTags: [],
          currentRef: 'master',
          deletedOnHost: ['summer'],
        }),
    });
    renderPicker(<BranchPicker anchorEl={anchor()} onClose={() => undefined} />);
    const summer = await screen.findByRole('button', { name: /summer/ });
    expect(summer).toHaveTextContent('summerdeleted on the git host');
    expect(screen.getByRole('button', { name: 'master' })).not.toHaveTextContent('deleted on the git host');
  });

  it("switches branch, rewriting the URL with ':' and keeping the screen", async () => {
    mockFetch({
      'GET api/v1/portal_branch/allReferences/1/1': () =>
        jsonResponse({ allReferences: ['master', 'feature/summer'], allTags: [], currentRef: 'master' }),
      'GET api/v1/portal/1/1/open': () =>
        jsonResponse({
          portal: p(1, 'Crew Portal', ''),
          branch: 'feature/summer',
          settings: {
            engineType: 'PORTAL_ENGINE',
            supportLevel: 'FULL',
            scope: 'FULL',
            languageSettings: { languages: ['en_GB', 'fr_FR'], defaultLanguage: 'en_GB', languageMode: 'TRANSLATION' },
          },
          status: { branch: 'feature/summer', changes: {}, aheadCount: 0, behindCount: 0 },
        }),
    });
    const shown: string[] = [];
    vi.spyOn(overlay, 'show').mockImplementation((o) => {
      shown.push(typeof o === 'string' ? o : (o?.message ?? ''));
    });
    const { router } = renderPicker(<BranchPicker anchorEl={anchor()} onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'feature/summer' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/1/branch/feature:summer/en_GB/settings'),
    );
    expect(useSelectionStore.getState().branch).toBe('feature/summer');
    expect(shown).toEqual(['Switching Branch']);
  });

  it("offers 'Discard local changes and switch' on GIT_LOCAL_COMMITS_ERROR", async () => {
    const urls: string[] = [];
    mockFetch({
      'GET api/v1/portal_branch/allReferences/1/1': () =>
        jsonResponse({ allReferences: ['master', 'dev'], allTags: [], currentRef: 'master' }),
      'GET api/v1/portal/1/1/open': ({ url }) => {
        urls.push(url);
        if (!url.includes('override=true'))
          return errorResponse(409, { errorCode: 'GIT_LOCAL_COMMITS_ERROR', errorMessage: 'You have local changes.' });
        return jsonResponse({
          portal: p(1, 'Crew Portal', ''),
          branch: 'dev',
          settings: {
            engineType: 'PORTAL_ENGINE',
            supportLevel: 'FULL',
            scope: 'FULL',
            languageSettings: { languages: ['en_GB'], defaultLanguage: 'en_GB', languageMode: 'SINGLE_LANGUAGE' },
          },
          status: { branch: 'dev', changes: {}, aheadCount: 0, behindCount: 0 },
        });
      },
    });
    const { router } = renderPicker(<BranchPicker anchorEl={anchor()} onClose={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'dev' }));
    await userEvent.click(await screen.findByRole('button', { name: DISCARD_AND_SWITCH }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/domain/1/portal/1/branch/dev/en_GB/settings'));
    expect(urls).toHaveLength(2);
    expect(urls[1]).toContain('override=true');
  });
});

describe('Select Language', () => {
  it('rewrites the language segment and keeps the screen', async () => {
    const { router } = renderPicker(<LanguagePicker anchorEl={anchor()} onClose={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: /^French \(France\) fr_FR/ }));
    expect(router.state.location.pathname).toBe('/domain/1/portal/1/branch/master/fr_FR/settings');
  });
});
