import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../../api/authStorage';
import { overlay } from '../../../core/overlayStore';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../../core/selectionStore';
import { useSessionStore } from '../../../core/sessionStore';
import { clearToasts, dismissToast, useToastStore } from '../../../core/toastService';
import { MESSAGES } from '../../../lib/validation';
import {
  called,
  errorResponse,
  jsonResponse,
  jwtExpiringIn,
  mockFetch,
  queryOf,
  sampleUser,
} from '../../../test/helpers';
import { renderRoute } from '../../../test/render';
import { LOCAL_CHANGES_MESSAGES } from './commit';
import { LocalChangesMenu } from './LocalChangesMenu';

const titledToasts = () => useToastStore.getState().toasts.map((t) => [t.type, t.title, t.message]);
let overlayMessages: string[];

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser }, features: {} });
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo Airline' },
    portal: { id: 1, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    branch: 'master',
    language: 'en_GB',
  });
  setDomainPermissions(1, ['Authors'], ['portal_read', 'portal_write', 'asset_read']);
  clearToasts();
  overlayMessages = [];
  vi.spyOn(overlay, 'show').mockImplementation((o) => {
    overlayMessages.push(typeof o === 'string' ? o : (o?.message ?? ''));
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const ws = [
  {
    user: { id: sampleUser.id, userName: 'ada', firstName: 'Ada', lastName: 'Lovelace' },
    aheadCount: 0,
    behindCount: 0,
    hasChanges: true,
    branch: 'master',
    domainName: 'Demo Airline',
    portalName: 'Crew Portal',
    changes: { 'mine.html': 'ADD' },
  },
  {
    user: { id: 8, userName: 'bob', firstName: 'Bob', lastName: 'Builder' },
    aheadCount: 2,
    behindCount: 1,
    hasChanges: true,
    branch: 'master',
    domainName: 'Demo Airline',
    portalName: 'Crew Portal',
    changes: { 'pages/bob.html': 'MODIFY' },
  },
];

const noConflicts = { inConflict: false, branch: 'master', tip: 't1', files: [], merged: [] };
const inConflict = {
  ...noConflicts,
  inConflict: true,
  files: [{ path: 'pages/a.html', kind: 'text', binary: false, hasSchema: false, conflicts: [] }],
};

function server(
  commit: () => Response = () => jsonResponse({ commitId: 'c2', ruleWarnings: [] }),
  conflicts: (committed: boolean) => Response = () => jsonResponse(noConflicts),
) {
  const commits: unknown[] = [];
  return mockFetch({
    'GET api/v1/workspace-conflicts/1/1': () => conflicts(commits.length > 0),
    'GET api/v1/portal/1/1/local-changes': () =>
      jsonResponse({
        branch: 'master',
        changes: { 'index.html': 'MODIFY', 'new.html': 'ADD' },
        aheadCount: 1,
        behindCount: 0,
      }),
    'GET api/v1/portal/1/1/local-commits': () =>
      jsonResponse([{ commitId: 'c1', message: 'First draft', time: new Date(2026, 2, 5, 9, 7).toISOString() }]),
    'GET api/v1/portal/1/1/wsChanges/master': () => jsonResponse(ws),
    'POST api/v1/portal/1/1/commits': ({ init }) => {
      commits.push(JSON.parse(String(init.body)));
      return commit();
    },
  });
}

/** The commit messages posted. */
const postedCommits = (fetch: ReturnType<typeof server>) =>
  fetch.mock.calls
    .filter(([url, init]) => String(url) === 'api/v1/portal/1/1/commits' && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

const render = () =>
  renderRoute([{ path: '*', element: <LocalChangesMenu /> }], '/domain/1/portal/1/branch/master/en_GB/dashboard');

async function openPanel() {
  await userEvent.click(await screen.findByRole('button', { name: 'Local changes: 2' }));
  return screen.findByRole('region', { name: 'Local changes' });
}

describe('local changes menu', () => {
  it('lists local commits and uncommitted changes; other users only, not the caller', async () => {
    server();
    render();
    const panel = await openPanel();
    const commitsTable = await within(panel).findByRole('table', { name: 'Local commits table' });
    expect(commitsTable).toHaveTextContent('First draft');
    expect(commitsTable).toHaveTextContent('03/05/2026 09:07');
    expect(within(commitsTable).getByRole('button', { name: 'Revert To' })).toBeInTheDocument();
    const files = within(panel).getByRole('list', { name: 'Uncommitted files' });
    expect(files).toHaveTextContent('index.html');
    expect(files).toHaveTextContent('MODIFY');
    expect(files).toHaveTextContent('new.html');
    const others = await within(panel).findByRole('list', { name: 'Other users' });
    expect(others).toHaveTextContent('Bob Builder (bob)');
    expect(others).toHaveTextContent('Ahead 2 · Behind 1');
    expect(others).not.toHaveTextContent('Ada');
    await userEvent.click(within(others).getByRole('button', { name: 'View changes' }));
    expect(await screen.findByRole('dialog', { name: 'Local changes of Bob Builder (bob)' })).toHaveTextContent(
      'pages/bob.html',
    );
  });

  it('applies the commit message rule and commits with the spinner', async () => {
    const fetch = server();
    render();
    const panel = await openPanel();
    const submit = within(panel).getByRole('button', { name: 'Submit' });
    const box = within(panel).getByLabelText('Commit message');
    expect(submit).toBeDisabled();
    await userEvent.type(box, '!oops');
    expect(within(panel).getByText(MESSAGES.commitFormat)).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await userEvent.clear(box);
    expect(within(panel).getByText(MESSAGES.commitRequired)).toBeInTheDocument();
    await userEvent.type(box, 'Fix the header');
    expect(submit).toBeEnabled();
    await userEvent.click(submit);
    await waitFor(() => expect(postedCommits(fetch)).toEqual([{ message: 'Fix the header' }]));
    expect(overlayMessages).toContain(LOCAL_CHANGES_MESSAGES.committing);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Local changes' })).toBeNull());
  });

  it('a commit whose changes are already on the branch is told as information, not success', async () => {
    const nothing =
      'Nothing was left to commit: your changes are already on the branch. Your local commit is kept under Recover discarded work.';
    server(() =>
      jsonResponse({ commitId: 'c1', ruleWarnings: [], committed: false, discarded: '42', message: nothing }),
    );
    render();
    const panel = await openPanel();
    await userEvent.type(within(panel).getByLabelText('Commit message'), 'Same change');
    await userEvent.click(within(panel).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(titledToasts()).toEqual([['INFO', 'Nothing committed', nothing]]));
  });

  it('shows the content validation warning toast with the rule messages', async () => {
    server(() =>
      jsonResponse({
        commitId: 'c2',
        ruleWarnings: ['pages/a.html: missing alt text'],
        code: 'CONTENT_VALIDATION_PASS_WITH_WARNINGS',
      }),
    );
    render();
    const panel = await openPanel();
    await userEvent.type(within(panel).getByLabelText('Commit message'), 'Images');
    await userEvent.click(within(panel).getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(titledToasts()).toEqual([
        [
          'WARNING',
          undefined,
          'Content Validation Warning: Some files that were committed produced content validation warnings. Proceed with caution.',
        ],
        ['WARNING', 'Content validation warning occurred after committing changes', 'pages/a.html: missing alt text'],
      ]),
    );
  });

  it("shows 'Something went wrong pulling local commits' when the local commits fail to load", async () => {
    server();
    const fetch = vi.mocked(globalThis.fetch);
    const routes = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input, init) => {
      if (String(input) === 'api/v1/portal/1/1/local-commits')
        return errorResponse(400, { errorCode: 'GIT_ERROR', errorMessage: 'The workspace could not be read.' });
      return routes(input, init);
    });
    render();
    await waitFor(() =>
      expect(titledToasts()).toContainEqual([
        'DANGER',
        LOCAL_CHANGES_MESSAGES.localCommitsFailed,
        'The workspace could not be read.',
      ]),
    );
    expect(LOCAL_CHANGES_MESSAGES.localCommitsFailed).toBe('Something went wrong pulling local commits');
  });

  it("shows 'Could not revert portal' when Revert To fails", async () => {
    server();
    const fetch = vi.mocked(globalThis.fetch);
    const routes = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input, init) => {
      if (init?.method === 'POST' && String(input) === 'api/v1/portal/1/1/revert')
        return errorResponse(409, { errorCode: 'GIT_CONFLICTS', errorMessage: 'The revert conflicts.' });
      return routes(input, init);
    });
    render();
    const panel = await openPanel();
    await userEvent.click(await within(panel).findByRole('button', { name: 'Revert To' }));
    const prompt = useToastStore.getState().toasts.find((t) => t.isPrompt);
    dismissToast(prompt!.id, true);
    await waitFor(() =>
      expect(titledToasts()).toContainEqual(['DANGER', 'Could not revert portal', 'The revert conflicts.']),
    );
  });

  it('a commit that conflicts shows the server message with Resolve conflicts and Reset Workspace; Submit and Revert To wait', async () => {
    const message =
      'Your changes conflict with changes another user committed. Resolve the conflicts to continue; your local commit is kept until you do.';
    server(
      () => errorResponse(409, { errorCode: 'GIT_CONFLICTS', errorMessage: message }),
      (committed) => jsonResponse(committed ? inConflict : noConflicts),
    );
    const { router } = render();
    const panel = await openPanel();
    expect(within(panel).queryByRole('alert')).toBeNull();
    await userEvent.type(within(panel).getByLabelText('Commit message'), 'Conflicting');
    await userEvent.click(within(panel).getByRole('button', { name: 'Submit' }));
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(within(alert).getByRole('button', { name: 'Reset Workspace' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Revert To' })).toBeDisabled();
    expect(within(panel).getAllByText('Resolve the conflicts first').length).toBeGreaterThan(0);
    await userEvent.click(within(alert).getByRole('button', { name: 'Resolve conflicts' }));
    expect(router.state.location.pathname).toBe('/domain/1/portal/1/branch/master/en_GB/conflicts');
  });

  it('a workspace already in conflict (after a reload) offers Resolve and Reset; Submit and Revert To are disabled', async () => {
    server(undefined, () => jsonResponse(inConflict));
    render();
    const panel = await openPanel();
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('Resolve the conflicts to continue');
    expect(within(alert).getByRole('button', { name: 'Resolve conflicts' })).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: 'Reset Workspace' })).toBeInTheDocument();
    await userEvent.type(within(panel).getByLabelText('Commit message'), 'More work');
    const submit = within(panel).getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();
    expect(submit).toHaveAccessibleDescription('Resolve the conflicts first');
    expect(within(panel).getByRole('button', { name: 'Revert To' })).toBeDisabled();
  });

  it('Reset Workspace asks first, saying how long the server keeps the work; Cancel resets nothing', async () => {
    useSessionStore.setState({ features: { limits: { taskTimeoutMs: 600_000, discardedWorkDays: 60 } } });
    const fetch = server(undefined, () => jsonResponse(inConflict));
    render();
    const panel = await openPanel();
    const alert = await within(panel).findByRole('alert');
    await userEvent.click(within(alert).getByRole('button', { name: 'Reset Workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Workspace?' });
    expect(dialog).toHaveTextContent(
      'Reset discards your local commits and uncommitted changes. They are kept under Recover discarded work for 60 days, where you can restore them.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reset Workspace?' })).toBeNull());
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/reset/'))).toBe(false);
  });

  it('Revert All opens the workspace again, so every view (and the languages) shows the reverted files', async () => {
    server();
    const calls: string[] = [];
    const fetch = vi.mocked(globalThis.fetch);
    const routes = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input, init) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      if (method === 'POST' && url === 'api/v1/portal/1/1/revert') {
        calls.push('revert');
        return new Response(null, { status: 204 });
      }
      if (url.startsWith('api/v1/portal/1/1/open')) {
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
      }
      return routes(input, init);
    });
    render();
    const panel = await openPanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Revert All' }));
    const prompt = useToastStore.getState().toasts.find((t) => t.message === LOCAL_CHANGES_MESSAGES.revertAllPrompt);
    dismissToast(prompt!.id, true);
    await waitFor(() => expect(calls).toEqual(['revert', 'open']));
    await waitFor(() => expect(useSelectionStore.getState().portalInfo?.languages).toEqual(['en_GB']));
    expect(overlayMessages).toContain(LOCAL_CHANGES_MESSAGES.reverting);
  });

  it('Reset goes to the dashboard of the branch the server put the workspace on (the active one when mine was deleted)', async () => {
    useSelectionStore.setState({ branch: 'feature/gone' });
    server(
      () => errorResponse(409, { errorCode: 'GIT_CONFLICTS', errorMessage: 'Conflict.' }),
      (committed) => jsonResponse(committed ? inConflict : noConflicts),
    );
    const fetch = vi.mocked(globalThis.fetch);
    const routes = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input, init) => {
      if (init?.method === 'PUT' && String(input) === 'api/v1/portal/1/1/reset/feature%3Agone')
        return jsonResponse({ branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 });
      if (String(input).includes('/wsChanges/')) return jsonResponse([]);
      return routes(input, init);
    });
    const { router } = renderRoute(
      [{ path: '*', element: <LocalChangesMenu /> }],
      '/domain/1/portal/1/branch/feature:gone/en_GB/dashboard',
    );
    const panel = await openPanel();
    await userEvent.type(within(panel).getByLabelText('Commit message'), 'On a dead branch');
    await userEvent.click(within(panel).getByRole('button', { name: 'Submit' }));
    const alert = await within(panel).findByRole('alert');
    await userEvent.click(within(alert).getByRole('button', { name: 'Reset Workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Workspace?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(overlayMessages).toContain('Resetting Workspace');
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/1/branch/master/en_GB/dashboard'),
    );
  });

  it('Review shows a file of the next commit; Review all pages through every file', async () => {
    const fetch = server();
    const routes = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.startsWith('api/v1/workspace-review/1/1/files'))
        return jsonResponse({ files: { 'index.html': 'MODIFY', 'new.html': 'ADD' } });
      if (url.startsWith('api/v1/workspace-review/1/1?')) {
        const path = new URLSearchParams(url.split('?')[1]).get('path');
        return jsonResponse({
          path,
          change: path === 'new.html' ? 'ADD' : 'MODIFY',
          kind: 'text',
          image: false,
          page: false,
          diff: {
            kind: 'text',
            fields: [],
            binary: false,
            truncated: false,
            hunks: [
              { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [{ op: '+', text: `line of ${path}` }] },
            ],
          },
          before: null,
          after: null,
        });
      }
      return routes(input, init);
    });
    render();
    const panel = await openPanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Review index.html' }));
    let dialog = await screen.findByRole('dialog', { name: 'Review changes' });
    expect(await within(dialog).findByRole('region', { name: 'Line changes of index.html' })).toHaveTextContent(
      'line of index.html',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Review changes' })).toBeNull());

    await userEvent.click(within(panel).getByRole('button', { name: 'Review all' }));
    dialog = await screen.findByRole('dialog', { name: 'Review changes' });
    expect(await within(dialog).findByText('File 1 of 2')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next file' }));
    expect(await within(dialog).findByRole('region', { name: 'Line changes of new.html' })).toHaveTextContent(
      'line of new.html',
    );
    expect(within(dialog).getByRole('button', { name: 'Next file' })).toBeDisabled();
  });

  it("reviews another user's file with user=ID", async () => {
    const fetch = server();
    const routes = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input, init) => {
      if (String(input).startsWith('api/v1/workspace-review/1/1?'))
        return jsonResponse({
          path: 'pages/bob.html',
          change: 'MODIFY',
          kind: 'text',
          image: false,
          page: false,
          diff: { kind: 'text', fields: [], hunks: [], binary: false, truncated: false },
          before: 'a',
          after: 'b',
        });
      return routes(input, init);
    });
    render();
    const panel = await openPanel();
    const others = await within(panel).findByRole('list', { name: 'Other users' });
    await userEvent.click(within(others).getByRole('button', { name: 'View changes' }));
    const changes = await screen.findByRole('dialog', { name: 'Local changes of Bob Builder (bob)' });
    await userEvent.click(within(changes).getByRole('button', { name: 'Review pages/bob.html' }));
    await screen.findByRole('dialog', { name: 'Changes of Bob Builder (bob)' });
    await waitFor(() => expect(called(fetch, 'GET api/v1/workspace-review/1/1')).toBe(true));
    const query = queryOf(fetch, 'GET api/v1/workspace-review/1/1');
    expect(query.get('path')).toBe('pages/bob.html');
    expect(query.get('user')).toBe('8');
  });

  it('Recover discarded work lists the entries; a double click on Restore sends one request, then the views refresh', async () => {
    const fetch = server();
    const routes = fetch.getMockImplementation()!;
    const calls: string[] = [];
    let release: () => void = () => undefined;
    fetch.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url === 'api/v1/workspace-discarded/1/1')
        return jsonResponse([
          {
            id: 'dw1',
            branch: 'master',
            time: new Date(2026, 2, 6, 10, 30).toISOString(),
            message: 'Menu rework',
            commits: 2,
            files: { 'data/menu.json': 'MODIFY', 'pages/lunch.html': 'ADD' },
          },
        ]);
      if (init?.method === 'POST' && url === 'api/v1/workspace-discarded/1/1/dw1/restore') {
        calls.push('restore');
        await new Promise<void>((resolve) => (release = resolve));
        return jsonResponse({
          restored: ['data/menu.json', 'pages/lunch.html'],
          overlapping: ['data/menu.json'],
          status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
        });
      }
      if (url.startsWith('api/v1/portal/1/1/open')) {
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
          status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
        });
      }
      return routes(input, init);
    });
    render();
    const panel = await openPanel();
    await userEvent.click(within(panel).getByRole('button', { name: 'Recover discarded work' }));
    const dialog = await screen.findByRole('dialog', { name: 'Recover discarded work' });
    // A server that does not say how long it keeps the work: no number of the screen's own.
    expect(dialog).toHaveTextContent(
      'Local commits and uncommitted changes that a Reset or a branch override put aside. Restoring brings them back as uncommitted changes.',
    );
    const table = await within(dialog).findByRole('table', { name: 'Discarded work' });
    expect(table).toHaveTextContent('03/06/2026 10:30');
    expect(table).toHaveTextContent('Menu rework');
    expect(table).toHaveTextContent('2 commits');
    await userEvent.click(within(table).getByRole('button', { name: '2 files' }));
    expect(within(table).getByRole('list', { name: 'Files discarded at 03/06/2026 10:30' })).toHaveTextContent(
      'pages/lunch.html',
    );
    const restore = within(table).getByRole('button', { name: 'Restore' });
    await userEvent.dblClick(restore);
    await waitFor(() => expect(restore).toBeDisabled());
    fireEvent.click(restore);
    release();
    await waitFor(() => expect(calls).toEqual(['restore', 'open']));
    await waitFor(() =>
      expect(titledToasts()).toEqual(
        expect.arrayContaining([
          ['SUCCESS', 'SUCCESS', 'Discarded work restored to your local changes.'],
          [
            'WARNING',
            'Restored over other changes',
            "The restored version replaced other authors' overlapping edits in: data/menu.json",
          ],
        ]),
      ),
    );
  });

  it('hides commit and revert without portal_write', async () => {
    server();
    setDomainPermissions(1, ['Readers'], ['portal_read']);
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Local changes' }));
    const panel = await screen.findByRole('region', { name: 'Local changes' });
    expect(await within(panel).findByRole('list', { name: 'Other users' })).toBeInTheDocument();
    expect(within(panel).queryByLabelText('Commit message')).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Revert All' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Submit' })).toBeNull();
  });
});
