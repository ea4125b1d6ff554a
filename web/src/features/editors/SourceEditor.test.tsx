import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { bodyOf, errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { EDITOR_THEME_KEY } from './useEditorTheme';
import { useWorkspaceEpoch } from '../../core/workspaceRefresh';
import { SourceEditor } from './SourceEditor';
import { fileResponse, nthCall, renderEditor, savedResponse } from './testUtils';

vi.mock('./AceField', () => import('../../test/aceTextarea'));

const FILE = 'GET api/v1/assets/1/2/src/css/site.css';
const SAVE = 'POST api/v1/assets/1/2/src/css/site.css';
const MERGE = 'POST api/v1/workspace-merge/1/2';

function open(canWrite: boolean) {
  const onClose = vi.fn();
  renderEditor(<SourceEditor domain={1} portal={2} path="/css/site.css" canWrite={canWrite} onClose={onClose} />);
  return onClose;
}

describe('SourceEditor', () => {
  it('reloads after a workspace change (revert, reset, reload): at once without an edit, on request with one', async () => {
    let text = 'body {}';
    let version = 'v1';
    mockFetch({ [FILE]: () => fileResponse(text, version, 'text/css') });
    open(true);
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    expect(source).toHaveValue('body {}');

    // Revert All: no unsaved edit, the editor shows the file as it now is.
    text = 'reverted {}';
    version = 'v2';
    useWorkspaceEpoch.setState((s) => ({ epoch: s.epoch + 1 }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Source of /css/site.css' })).toHaveValue('reverted {}'),
    );
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();

    // With an unsaved edit: kept, the user is told and offered Reload.
    await userEvent.type(screen.getByRole('textbox', { name: 'Source of /css/site.css' }), ' mine');
    text = 'reset {}';
    version = 'v3';
    useWorkspaceEpoch.setState((s) => ({ epoch: s.epoch + 1 }));
    const reload = await screen.findByRole('button', { name: 'Reload' });
    expect(screen.getByRole('alert')).toHaveTextContent('saving it will be refused');
    expect(screen.getByRole('textbox', { name: 'Source of /css/site.css' })).toHaveValue('reverted {} mine');
    await userEvent.click(reload);
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Source of /css/site.css' })).toHaveValue('reset {}'),
    );
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
  });

  it("opens in the Ace mode the server names for the file (an Asset's editorMode)", async () => {
    mockFetch({
      [FILE]: ({ url }) =>
        url.includes('meta=1')
          ? jsonResponse({ name: 'site.css', path: '/css/site.css', editorMode: 'scss' })
          : fileResponse('body {}', 'v1', 'text/css'),
    });
    open(true);
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    await waitFor(() => expect(source).toHaveAttribute('data-mode', 'scss'));
  });

  it('shows the source read-only without Save when the user cannot write', async () => {
    mockFetch({ [FILE]: () => fileResponse('body {}', 'v1', 'text/css') });
    open(false);
    expect(screen.getByRole('heading', { name: 'Editing: /css/site.css' })).toBeInTheDocument();
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    expect(source).toHaveValue('body {}');
    expect(source).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('enables Save after a change and saves with If-Match of the version read', async () => {
    const fetch = mockFetch({
      [FILE]: () => fileResponse('body {}', 'v1', 'text/css'),
      [SAVE]: () => savedResponse('/css/site.css', 'v2'),
    });
    open(true);
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.type(source, ' p');
    expect(save).toBeEnabled();
    await userEvent.click(save);
    expect(await screen.findByText('Changes saved to your workspace.')).toBeInTheDocument();
    const call = nthCall(fetch, SAVE);
    expect(call.headers.get('If-Match')).toBe('"v1"');
    expect(call.body).toEqual({ data: 'body {} p' });
    await waitFor(() => expect(save).toBeDisabled());
  });

  it('merges a refused save with the current file and saves the merge with its version', async () => {
    let saves = 0;
    const fetch = mockFetch({
      [FILE]: () => fileResponse('a {}\nb {}\n', 'v1', 'text/css'),
      [SAVE]: () =>
        saves++ === 0
          ? errorResponse(409, { errorCode: 'FILE_CHANGED', errorMessage: 'The file changed' })
          : savedResponse('/css/site.css', 'v3'),
      [MERGE]: () =>
        jsonResponse({
          kind: 'text',
          merged: 'a { x }\nb { theirs }\n',
          theirs: 'a {}\nb { theirs }\n',
          version: 'v2',
          conflicts: [],
          unresolved: 0,
        }),
    });
    open(true);
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    await userEvent.clear(source);
    await userEvent.type(source, 'a {{ x }{enter}b {{}{enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Merged with changes made meanwhile and saved.')).toBeInTheDocument();
    expect(bodyOf(fetch, MERGE)).toEqual({ path: 'css/site.css', base: 'a {}\nb {}\n', mine: 'a { x }\nb {}\n' });
    const retry = nthCall(fetch, SAVE, 1);
    expect(retry.headers.get('If-Match')).toBe('"v2"');
    expect(retry.body).toEqual({ data: 'a { x }\nb { theirs }\n' });
    await waitFor(() => expect(source).toHaveValue('a { x }\nb { theirs }\n'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('merges at most three times when the file keeps changing, then asks', async () => {
    let merges = 0;
    const fetch = mockFetch({
      [FILE]: () => fileResponse('old', 'v1'),
      [SAVE]: () => errorResponse(409, { errorCode: 'FILE_CHANGED' }),
      [MERGE]: () => {
        merges++;
        return jsonResponse({
          kind: 'text',
          merged: `old!${merges}`,
          theirs: `old${merges}`,
          version: `v${merges + 1}`,
          conflicts: [],
          unresolved: 0,
        });
      },
    });
    open(true);
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    await userEvent.type(source, '!');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'The file changed' });
    expect(merges).toBe(3);
    // The first save, then one after each merge.
    expect(() => nthCall(fetch, SAVE, 3)).not.toThrow();
    expect(() => nthCall(fetch, SAVE, 4)).toThrow();
    expect(within(dialog).getByText(/The file kept changing/)).toBeInTheDocument();
    // Apply loads the last merge, unsaved, based on the file as that merge saw it.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(source).toHaveValue('old!3');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('a merge that fails still offers reload and discard, which shows the file as it is now', async () => {
    let reads = 0;
    mockFetch({
      [FILE]: () => fileResponse(reads++ === 0 ? 'old' : 'theirs', reads === 1 ? 'v1' : 'v2'),
      [SAVE]: () => errorResponse(409, { errorCode: 'FILE_CHANGED' }),
    });
    open(true);
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    await userEvent.type(source, '!');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Reload and discard my edit' }));
    await waitFor(() => expect(source).toHaveValue('theirs'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('shows the danger toast on a failed save', async () => {
    mockFetch({
      [FILE]: () => fileResponse('a', 'v1'),
      [SAVE]: () => errorResponse(500, { errorMessage: 'Disk full' }),
    });
    open(true);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Source of /css/site.css' }), 'b');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save changes')).toBeInTheDocument();
    expect(screen.getByText('Disk full')).toBeInTheDocument();
  });

  it('defaults to XCode and keeps the chosen theme locally', async () => {
    mockFetch({ [FILE]: () => fileResponse('a', 'v1') });
    open(false);
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    expect(source).toHaveAttribute('data-theme', 'xcode');
    await userEvent.click(screen.getByRole('combobox', { name: 'Theme' }));
    await userEvent.click(screen.getByRole('option', { name: 'Monokai' }));
    expect(source).toHaveAttribute('data-theme', 'monokai');
    expect(window.localStorage.getItem(EDITOR_THEME_KEY)).toBe('monokai');
  });
});
