import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portalKeys } from '../../api/portal';
import { useSelectionStore } from '../../core/selectionStore';
import { refreshWorkspaceViews } from '../../core/workspaceRefresh';
import { bodyOf, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { EDITOR_MESSAGES } from '../editors';
import { SOURCE_MESSAGES as MSG } from './messages';
import { BATCH, editor, GET_HOME, pageAnswer, renderSourceMode as render, resetSourceMode } from './testing';

vi.mock('../editors/AceField', () => import('../../test/aceTextarea'));

afterEach(() => {
  vi.unstubAllGlobals();
  resetSourceMode();
});

describe('source mode', () => {
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

  it('shows the page as it now is after Revert All, Revert To, Reset or Reload Now; an unsaved edit is kept and offered Reload', async () => {
    let html = '<h1>Home</h1>';
    let version = 'v1';
    const fetch = mockFetch({
      [GET_HOME]: () => jsonResponse(pageAnswer('home', html, version)),
      [BATCH]: () => jsonResponse([{ file: 'home', path: 'pages/home.html', version: 'v4' }]),
    });
    const { user, queryClient } = render();
    expect(await editor()).toHaveValue('<h1>Home</h1>');

    // Revert All, no unsaved edit: the editor shows the page as it now is.
    html = '<h1>Reverted</h1>';
    version = 'v2';
    await act(() => refreshWorkspaceViews(queryClient, 1, 2));
    await waitFor(async () => expect(await editor()).toHaveValue('<h1>Reverted</h1>'));
    expect(screen.queryByRole('button', { name: EDITOR_MESSAGES.reload })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    // Reset with an unsaved edit: the edit is kept, the author is told and offered Reload.
    await user.type(await editor(), '!');
    html = '<h1>Reset</h1>';
    version = 'v3';
    await act(() => refreshWorkspaceViews(queryClient, 1, 2));
    const reload = await screen.findByRole('button', { name: EDITOR_MESSAGES.reload });
    expect(screen.getByRole('alert')).toHaveTextContent(EDITOR_MESSAGES.workspaceChanged);
    expect(await editor()).toHaveValue('<h1>Reverted</h1>!');
    await user.click(reload);
    await waitFor(async () => expect(await editor()).toHaveValue('<h1>Reset</h1>'));
    expect(screen.queryByRole('button', { name: EDITOR_MESSAGES.reload })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    // The next save is based on the page read again.
    await user.type(await editor(), '?');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MSG.saved)).toBeInTheDocument();
    expect(bodyOf(fetch, BATCH)).toEqual([{ file: 'home', data: '<h1>Reset</h1>?', type: 'page', version: 'v3' }]);
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
});
