import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../../api/authStorage';
import { overlay } from '../../../app/overlay/overlayStore';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../../app/selection/selectionStore';
import { useSessionStore } from '../../../app/session/sessionStore';
import { clearToasts, dismissToast, useToastStore } from '../../../app/toasts/toastService';
import { MESSAGES } from '../../../lib/validation';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../../test/helpers';
import { renderRoute } from '../../../test/render';
import { LOCAL_CHANGES_MESSAGES } from './commit';
import { LocalChangesMenu } from './LocalChangesMenu';

const titledToasts = () => useToastStore.getState().toasts.map((t) => [t.type, t.title, t.message]);
let overlayMessages: string[];

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser } });
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo Airline' },
    portal: { id: 1, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    branch: 'master',
    language: 'en_GB',
  });
  setDomainPermissions(1, ['Authors'], ['portal_read', 'portal_write']);
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

function server(commit: () => Response = () => jsonResponse({ commitId: 'c2', ruleWarnings: [] })) {
  const commits: unknown[] = [];
  mockFetch({
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
  return commits;
}

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
    const commits = server();
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
    await waitFor(() => expect(commits).toEqual([{ message: 'Fix the header' }]));
    expect(overlayMessages).toContain(LOCAL_CHANGES_MESSAGES.committing);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Local changes' })).toBeNull());
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

  it('shows a commit conflict with a Reset action', async () => {
    server(() =>
      errorResponse(409, {
        errorCode: 'GIT_CONFLICTS',
        errorMessage: 'The branch moved on; your commit is kept locally.',
      }),
    );
    render();
    const panel = await openPanel();
    await userEvent.type(within(panel).getByLabelText('Commit message'), 'Conflicting');
    await userEvent.click(within(panel).getByRole('button', { name: 'Submit' }));
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('The branch moved on; your commit is kept locally.');
    expect(within(alert).getByRole('button', { name: 'Reset Workspace' })).toBeInTheDocument();
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
    server(() => errorResponse(409, { errorCode: 'GIT_CONFLICTS', errorMessage: 'Conflict.' }));
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
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/domain/1/portal/1/branch/master/en_GB/dashboard'),
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
