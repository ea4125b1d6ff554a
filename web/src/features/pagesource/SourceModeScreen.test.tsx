import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portalKeys } from '../../api/portal';
import { initialSelectionState, useSelectionStore } from '../../app/selection/selectionStore';
import { ToastStack } from '../../app/toasts/ToastStack';
import { clearToasts } from '../../app/toasts/toastService';
import { bodyOf, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderRoute, signIn } from '../../test/render';
import { SOURCE_MESSAGES as MSG } from './messages';
import SourceModeScreen, { modePath } from './SourceModeScreen';

// happy-dom cannot run Ace: a textarea stands in for it.
vi.mock('../editors/AceField', () => ({
  default: (props: {
    value: string;
    onChange: (v: string) => void;
    label: string;
    readOnly?: boolean;
    theme: string;
  }) => (
    <textarea
      aria-label={props.label}
      data-theme={props.theme}
      value={props.value}
      readOnly={props.readOnly}
      onChange={(e) => props.onChange(e.target.value)}
    />
  ),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  localStorage.clear();
});

const BASE = '/domain/1/portal/2/branch/master/en_GB/pages';
const GET_HOME = 'GET api/v1/page/1/2/home';
const BATCH = 'POST api/v1/portal/1/2/batch';

const pageAnswer = (id: string, html: string, version: string, extra: object = {}) => ({
  id,
  title: id === 'master-page' ? 'Master Page' : 'Home',
  url: `/pages/${id}.html`,
  parameters: [],
  hidePage: false,
  status: 'PUBLISHED',
  children: [],
  html,
  parentId: 'master-page',
  position: 0,
  path: id === 'master-page' ? 'index.html' : `pages/${id}.html`,
  version,
  sitemapVersion: 's1',
  ...extra,
});

function render(pageId = 'home', user = { ...sampleUser, admin: true }, permissions: string[] = []) {
  clearToasts();
  signIn(user);
  useSelectionStore.setState({
    portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL' },
    branch: 'master',
    permissions,
  });
  const utils = renderRoute(
    [
      {
        path: '/domain/:domain/portal/:portal/branch/:branch/:language/pages/:pageId/source-mode',
        element: (
          <>
            <SourceModeScreen />
            <ToastStack />
          </>
        ),
      },
      {
        path: '/domain/:domain/portal/:portal/branch/:branch/:language/pages/:pageId/designer-mode',
        element: <h1>Designer of the page</h1>,
      },
    ],
    `${BASE}/${pageId}/source-mode`,
  );
  return { ...utils, user: userEvent.setup() };
}

const editor = () => screen.findByRole('textbox', { name: 'HTML source of Home' });

describe('source mode', () => {
  it('builds the other mode of the same page', () => {
    expect(modePath(`${BASE}/home/source-mode`, 'designer-mode')).toBe(`${BASE}/home/designer-mode`);
  });

  it("loads the page's HTML in the editor with the XCode theme and Save disabled until a change", async () => {
    mockFetch({ [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')) });
    const { user } = render();
    const source = await editor();
    expect(source).toHaveValue('<h1>Home</h1>');
    expect(source).toHaveAttribute('data-theme', 'xcode');
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.type(source, '!');
    expect(save).toBeEnabled();
    expect(useSelectionStore.getState().page).toEqual({ id: 'home', title: 'Home' });
  });

  it('saves through the batch with the version read and refreshes the local changes', async () => {
    const fetch = mockFetch({
      [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')),
      [BATCH]: () => jsonResponse([{ file: 'home', path: 'pages/home.html', version: 'v2' }]),
    });
    const { user, queryClient } = render();
    queryClient.setQueryData(portalKeys.localChanges(1, 2), []);
    const source = await editor();
    await user.type(source, '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MSG.saved)).toBeInTheDocument();
    expect(bodyOf(fetch, BATCH)).toEqual([{ file: 'home', data: '<h1>Home</h1>!', type: 'page', version: 'v1' }]);
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(queryClient.getQueryState(portalKeys.localChanges(1, 2))?.isInvalidated).toBe(true);
    // The next save is based on the new version.
    await user.type(source, '?');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.mock.calls.filter(([u]) => String(u).includes('batch'))).toHaveLength(2));
    const second = JSON.parse(
      String((fetch.mock.calls.filter(([u]) => String(u).includes('batch'))[1][1] as RequestInit).body),
    );
    expect(second[0].version).toBe('v2');
  });

  it('edits index.html for the master page', async () => {
    const fetch = mockFetch({
      'GET api/v1/page/1/2/master-page': () => jsonResponse(pageAnswer('master-page', '<html></html>', 'm1')),
      [BATCH]: () => jsonResponse([{ file: 'master-page', path: 'index.html', version: 'm2' }]),
    });
    const { user } = render('master-page');
    const source = await screen.findByRole('textbox', { name: 'HTML source of Master Page' });
    expect(screen.getByText(MSG.masterNote)).toBeInTheDocument();
    await user.type(source, ' ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(MSG.saved);
    expect(bodyOf(fetch, BATCH)).toEqual([
      { file: 'master-page', data: '<html></html> ', type: 'page', version: 'm1' },
    ]);
  });

  it('merges the edit into the page changed meanwhile and saves it with the current version', async () => {
    const stale = {
      file: 'home',
      path: 'pages/home.html',
      error: {
        errorTitle: 'Could not save design surface changes.',
        errorMessage: 'The file pages/home.html was changed since you opened it.',
        errorCode: 'FILE_CHANGED',
        httpStatus: 409,
        data: { path: 'pages/home.html', currentVersion: 'v9' },
      },
    };
    let batches = 0;
    const fetch = mockFetch({
      [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>\n<p>x</p>', 'v1')),
      [BATCH]: () =>
        jsonResponse(batches++ === 0 ? [stale] : [{ file: 'home', path: 'pages/home.html', version: 'v10' }]),
      'POST api/v1/workspace-merge/1/2': () =>
        jsonResponse({
          kind: 'text',
          merged: '<h1>Home</h1>!\n<p>theirs</p>',
          theirs: '<h1>Home</h1>\n<p>theirs</p>',
          version: 'v9',
          conflicts: [],
          unresolved: 0,
        }),
    });
    const { user } = render();
    const source = await editor();
    await user.click(source);
    await user.keyboard('{Control>}{Home}{/Control}');
    await user.clear(source);
    await user.type(source, '<h1>Home</h1>!{enter}<p>x</p>');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Merged with changes made meanwhile and saved.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/workspace-merge/1/2')).toEqual({
      path: 'pages/home.html',
      base: '<h1>Home</h1>\n<p>x</p>',
      mine: '<h1>Home</h1>!\n<p>x</p>',
    });
    const second = JSON.parse(
      String((fetch.mock.calls.filter(([u]) => String(u).includes('batch'))[1][1] as RequestInit).body),
    );
    expect(second).toEqual([{ file: 'home', data: '<h1>Home</h1>!\n<p>theirs</p>', type: 'page', version: 'v9' }]);
    await waitFor(() => expect(source).toHaveValue('<h1>Home</h1>!\n<p>theirs</p>'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows an item's error", async () => {
    mockFetch({
      [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')),
      [BATCH]: () =>
        jsonResponse([
          {
            file: 'home',
            error: {
              errorTitle: 'Could not save design surface changes.',
              errorMessage: "There is no page 'home' in the sitemap. Add it in the Page Manager first.",
              errorCode: 'PAGE_NOT_FOUND',
              httpStatus: 404,
            },
          },
        ]),
    });
    const { user } = render();
    await user.type(await editor(), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alerts = await screen.findAllByText(/There is no page 'home' in the sitemap/);
    expect(alerts.length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('shows the load failure with the spec title', async () => {
    mockFetch({
      [GET_HOME]: () => errorResponse(404, { errorTitle: 'Failed to retrieve page.', errorMessage: 'No page' }),
    });
    render();
    expect(await screen.findByText(MSG.retrieveFailed)).toBeInTheDocument();
  });

  it('is read-only without page:w', async () => {
    mockFetch({ [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')) });
    render('home', { ...sampleUser, admin: false }, ['page_read']);
    expect(await editor()).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('switches to designer mode at once when nothing changed', async () => {
    mockFetch({ [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')) });
    const { user, router } = render();
    await editor();
    await user.click(screen.getByRole('button', { name: 'Designer mode' }));
    expect(await screen.findByRole('heading', { name: 'Designer of the page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`${BASE}/home/designer-mode`);
  });

  it('asks before leaving with changes: Continue leaves without saving', async () => {
    const fetch = mockFetch({ [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')) });
    const { user } = render();
    await user.type(await editor(), '!');
    await user.click(screen.getByRole('button', { name: 'Designer mode' }));
    const prompt = await screen.findByRole('dialog', { name: MSG.leaveTitle });
    expect(within(prompt).getByText(MSG.leaveQuestion)).toBeInTheDocument();
    await user.click(within(prompt).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Designer of the page' })).toBeInTheDocument();
    expect(fetch.mock.calls.some(([u]) => String(u).includes('batch'))).toBe(false);
  });

  it('asks before leaving with changes: Save saves, then leaves', async () => {
    const fetch = mockFetch({
      [GET_HOME]: () => jsonResponse(pageAnswer('home', '<h1>Home</h1>', 'v1')),
      [BATCH]: () => jsonResponse([{ file: 'home', path: 'pages/home.html', version: 'v2' }]),
    });
    const { user } = render();
    await user.type(await editor(), '!');
    await user.click(screen.getByRole('button', { name: 'Designer mode' }));
    const prompt = await screen.findByRole('dialog', { name: MSG.leaveTitle });
    await user.click(within(prompt).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Designer of the page' })).toBeInTheDocument();
    expect(bodyOf(fetch, BATCH)).toEqual([{ file: 'home', data: '<h1>Home</h1>!', type: 'page', version: 'v1' }]);
  });
});
