import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import type { WorkspaceChange } from '../../api/portal';
import { overlay } from '../../core/overlayStore';
import { registerRoute } from '../../core/registry';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';
import { clearToasts, dismissToast, useToastStore } from '../../core/toastService';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { renderRoute } from '../../test/render';
import { receiveOtherUserChange, clearOtherUsersChanges } from '../realtime/workspaceStore';
import { othersWithWork } from './dashboard/OthersWork';
import { LOCAL_CHANGES_MESSAGES } from './localChanges/commit';
import PortalDashboard from './PortalDashboard';

const empty = () => Promise.resolve({ default: () => null });
registerRoute({ id: 'portal.settings', path: 'x/settings', lazy: empty });
registerRoute({ id: 'portal.branches', path: 'x/branches', lazy: empty });

const info = {
  type: 'CREW' as const,
  status: 'active',
  category: 'Crew Portals',
  activeBranch: 'master',
  lastModified: '2026-03-05T09:07:00Z',
  languages: ['en_GB'],
  defaultLanguage: 'en_GB',
  languageMode: 'MULTILANGUAGE',
  scope: 'FULL' as const,
  engineType: 'PORTAL_ENGINE' as const,
  supportLevel: 'FULL' as const,
};

const commits = [
  {
    commitId: 'b'.repeat(40),
    author: 'Ann Author',
    email: 'ann@example.com',
    time: new Date(2026, 2, 6, 10, 30).toISOString(),
    message: 'Update the home page',
    files: [
      { path: 'pages/home.html', change: 'MODIFY' },
      { path: 'pages/news.html', change: 'ADD' },
      { path: 'index.html', change: 'DELETE' },
    ],
    filesTotal: 3,
  },
  {
    commitId: 'a'.repeat(40),
    author: 'Portalwright',
    email: 'portalwright@localhost',
    time: new Date(2026, 2, 5, 9, 7).toISOString(),
    message: 'Create portal',
    files: Array.from({ length: 8 }, (_, i) => ({ path: `file${i}.txt`, change: 'ADD' })),
    filesTotal: 12,
  },
];

const bob: WorkspaceChange = {
  user: { id: 8, userName: 'bob', firstName: 'Bob', lastName: 'Builder' },
  aheadCount: 0,
  behindCount: 1,
  hasChanges: true,
  branch: 'master',
  domainName: 'Demo Airline',
  portalName: 'Crew Portal',
  changes: { 'pages/bob.html': 'MODIFY', 'pages/b2.html': 'ADD' },
};
const me: WorkspaceChange = { ...bob, user: { id: sampleUser.id, userName: 'ada', firstName: 'Ada', lastName: 'L' } };
const idle: WorkspaceChange = {
  ...bob,
  user: { id: 9, userName: 'cy', firstName: 'Cy', lastName: 'Idle' },
  hasChanges: false,
  changes: {},
};

let calls: string[];
let overlayMessages: string[];

function server(extra: Record<string, () => Response> = {}) {
  calls = [];
  const linked: Array<{ id: number; name: string; status: string; target: string }> = [];
  mockFetch({
    'GET api/v1/portal/1/1/local-changes': () =>
      jsonResponse({ branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 }),
    'GET api/v1/portal/1/1/local-commits': () => jsonResponse([]),
    'GET api/v1/portal/1/1/commits': () => jsonResponse(commits),
    'GET api/v1/portal/1/1/wsChanges/master': () => jsonResponse([me, bob, idle]),
    'POST api/v1/portal/1/1/revert': ({ init }) => {
      calls.push(`revert ${String(init.body)}`);
      return jsonResponse({ commitId: 'c'.repeat(40), ruleWarnings: [] });
    },
    'GET api/v1/portal/1/1/open': () => {
      calls.push('open');
      return jsonResponse({
        portal: { id: 1, name: 'Crew Portal', scope: 'FULL', status: 'active', activeBranch: 'master' },
        branch: 'master',
        settings: {
          engineType: 'PORTAL_ENGINE',
          supportLevel: 'FULL',
          scope: 'FULL',
          languageSettings: { languages: ['en_GB'], defaultLanguage: 'en_GB', languageMode: 'MULTILANGUAGE' },
        },
        settingsVersion: 'v1',
        status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
      });
    },
    'GET api/v1/microsite/1/1/microsite': () => jsonResponse(linked),
    'GET api/v1/microsite/1/microsite': () =>
      jsonResponse([
        { id: 5, name: 'Duty Free', status: 'active', target: 'microsites/duty-free/index.html' },
        { id: 6, name: 'Games', status: 'active', target: 'microsites/games/index.html' },
      ]),
    'PUT api/v1/microsite/1/microsite': ({ init }) => {
      calls.push(`link ${String(init.body)}`);
      linked.push({ id: 5, name: 'Duty Free', status: 'active', target: 'microsites/duty-free/index.html' });
      return new Response(null, { status: 204 });
    },
    ...Object.fromEntries(Object.entries(extra).map(([k, f]) => [k, () => f()])),
  });
}

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser } });
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo Airline' },
    portal: { id: 1, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    portalInfo: info,
    branch: 'master',
    language: 'en_GB',
  });
  setDomainPermissions(
    1,
    ['Authors'],
    ['portal_read', 'portal_write', 'branch_read', 'portal_settings_read', 'microsite_link'],
  );
  clearToasts();
  clearOtherUsersChanges();
  overlayMessages = [];
  vi.spyOn(overlay, 'show').mockImplementation((o) => {
    overlayMessages.push(typeof o === 'string' ? o : (o?.message ?? ''));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const render = () =>
  renderRoute([{ path: '*', element: <PortalDashboard /> }], '/domain/1/portal/1/branch/master/en_GB/dashboard');

describe('portal dashboard', () => {
  it('shows the recent commits with author, time, message and files', async () => {
    server();
    render();
    const table = await screen.findByRole('table', { name: 'Recent commits table' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Update the home page');
    expect(rows[1]).toHaveTextContent('Ann Author');
    expect(rows[1]).toHaveTextContent('03/06/2026 10:30');
    const files = within(rows[1]).getByRole('list');
    expect(files).toHaveTextContent('Modifiedpages/home.html');
    expect(files).toHaveTextContent('Addedpages/news.html');
    expect(files).toHaveTextContent('Deletedindex.html');
    // The newest commit is what the branch is: no Revert To there.
    expect(within(rows[1]).queryByRole('button', { name: /Revert To/ })).toBeNull();
    // Five files, then the rest on demand, then how many were not listed.
    expect(within(rows[2]).getAllByRole('listitem')).toHaveLength(6);
    await userEvent.click(within(rows[2]).getByRole('button', { name: 'Show 3 more' }));
    expect(within(rows[2]).getByText('and 4 more files')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('reverts to a commit from the dashboard and opens the workspace again', async () => {
    server();
    render();
    const table = await screen.findByRole('table', { name: 'Recent commits table' });
    await userEvent.click(within(table).getByRole('button', { name: `Revert To ${'a'.repeat(10)}` }));
    const prompt = useToastStore.getState().toasts.find((t) => t.isPrompt);
    expect(prompt?.message).toBe(LOCAL_CHANGES_MESSAGES.revertToPrompt('Create portal'));
    dismissToast(prompt!.id, true);
    await waitFor(() => expect(calls).toEqual([`revert {"commitId":"${'a'.repeat(40)}"}`, 'open']));
    expect(overlayMessages).toContain(LOCAL_CHANGES_MESSAGES.reverting);
  });

  it('warns that Revert To discards uncommitted changes', async () => {
    server({
      'GET api/v1/portal/1/1/local-changes': () =>
        jsonResponse({
          branch: 'master',
          changes: { 'a.html': 'ADD', 'b.html': 'MODIFY' },
          aheadCount: 0,
          behindCount: 0,
        }),
    });
    render();
    await screen.findByRole('heading', { name: 'Local changes' });
    await waitFor(() => expect(screen.getByRole('paragraph', { name: 'Local changes' })).toHaveTextContent('2'));
    const table = await screen.findByRole('table', { name: 'Recent commits table' });
    await userEvent.click(within(table).getByRole('button', { name: /^Revert To/ }));
    const prompt = useToastStore.getState().toasts.find((t) => t.isPrompt);
    expect(prompt?.message).toBe(
      `${LOCAL_CHANGES_MESSAGES.revertToPrompt('Create portal')} Your 2 uncommitted changes are discarded.`,
    );
    dismissToast(prompt!.id, false);
    expect(calls).toEqual([]);
  });

  it("shows 'Could not revert portal' when the revert fails", async () => {
    server({
      'POST api/v1/portal/1/1/revert': () => errorResponse(409, { errorCode: 'GIT_CONFLICTS', errorMessage: 'Nope.' }),
    });
    render();
    const table = await screen.findByRole('table', { name: 'Recent commits table' });
    await userEvent.click(within(table).getByRole('button', { name: /^Revert To/ }));
    dismissToast(useToastStore.getState().toasts.find((t) => t.isPrompt)!.id, true);
    await waitFor(() =>
      expect(useToastStore.getState().toasts.map((t) => [t.type, t.title, t.message])).toContainEqual([
        'DANGER',
        'Could not revert portal',
        'Nope.',
      ]),
    );
  });

  it('hides Revert To without portal_write', async () => {
    server();
    setDomainPermissions(1, ['Readers'], ['portal_read']);
    render();
    const table = await screen.findByRole('table', { name: 'Recent commits table' });
    expect(within(table).queryByRole('button', { name: /Revert To/ })).toBeNull();
  });

  it('shows who else has uncommitted work, live from the realtime channel', async () => {
    server();
    render();
    const list = await screen.findByRole('list', { name: 'Users with uncommitted work' });
    expect(list).toHaveTextContent('Bob Builder (bob)');
    expect(list).toHaveTextContent('2 uncommitted files · 1 commit behind');
    expect(list).not.toHaveTextContent('Ada');
    expect(list).not.toHaveTextContent('Cy Idle');
    // Cy starts editing: the realtime store has it before any refetch.
    receiveOtherUserChange(1, { ...idle, hasChanges: true, changes: { 'a.html': 'ADD' } });
    await waitFor(() => expect(list).toHaveTextContent('Cy Idle (cy)'));
    expect(list).toHaveTextContent('1 uncommitted file');
  });

  it('offers the editing areas that exist', async () => {
    server();
    render();
    const areas = await screen.findByRole('region', { name: 'Work on this portal' });
    const links = within(areas)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(links).toEqual(['Portal Settings', 'Branches']);
    expect(within(areas).getByRole('link', { name: 'Branches' })).toHaveAttribute(
      'href',
      '/domain/1/portal/1/branch/master/en_GB/branches',
    );
  });

  it('links a microsite through the chooser; no Microsites card on a microsite', async () => {
    server();
    const { unmount } = render();
    const card = await screen.findByRole('region', { name: 'Microsites' });
    expect(await within(card).findByText('No microsites are linked into this portal')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Link…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link microsites' });
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: 'Duty Free' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(calls).toContain('link {"portalId":1,"microsites":[5]}'));
    const linked = await within(card).findByRole('list', { name: 'Linked microsites' });
    expect(linked).toHaveTextContent('Duty Free');
    expect(within(linked).getByRole('button', { name: 'Unlink Duty Free' })).toBeInTheDocument();
    unmount();

    useSelectionStore.setState({ portalInfo: { ...info, scope: 'MICROSITE' } });
    render();
    await screen.findByRole('table', { name: 'Recent commits table' });
    expect(screen.queryByRole('region', { name: 'Microsites' })).toBeNull();
  });
});

describe('othersWithWork', () => {
  it('lets the live entry of a user win and drops the caller and idle users', () => {
    const live = [{ ...bob, behindCount: 5 }];
    const got = othersWithWork([me, bob, idle], live, sampleUser.id);
    expect(got.map((c) => [c.user.userName, c.behindCount])).toEqual([['bob', 5]]);
  });
});
