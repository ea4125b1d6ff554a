import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assetKeys } from '../../api/assets';
import { storeTokens } from '../../api/authStorage';
import { jsonResponse, jwtExpiringIn, mockFetch } from '../../test/helpers';
import { createQueryClient } from '../../core/queryClient';
import { useAssetActions } from './useAssetActions';
import { useFolder } from './useAssetQueries';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function setup(start: string) {
  storeTokens({ id_token: jwtExpiringIn(900) });
  const client = createQueryClient();
  const onPathChange = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(({ folder }) => useAssetActions('1', '2', folder, onPathChange), {
    wrapper,
    initialProps: { folder: start },
  });
  return { client, onPathChange, hook };
}

describe('useAssetActions (issue 22 item 3)', () => {
  it('stays in the folder opened while a Delete Folder was answering', async () => {
    let answer: ((r: Response) => void) | null = null;
    mockFetch({
      'POST api/v1/assets/1/2/delete': () =>
        new Promise<Response>((resolve) => (answer = resolve)) as unknown as Response,
    });
    window.location.hash = '#/file-explorer?path=%2Fold';
    const { onPathChange, hook } = setup('/old');
    act(() => hook.result.current.deleteFolder.run('/old'));
    await waitFor(() => expect(answer).not.toBeNull());
    // The author opened another folder meanwhile; it has not rendered yet when the answer comes.
    window.location.hash = '#/file-explorer?path=%2Fother';
    await act(async () => answer?.(jsonResponse([{ file: '/old', result: true }])));
    await waitFor(() => expect(hook.result.current.deleteFolder.pending).toBe(false));
    expect(onPathChange).not.toHaveBeenCalled();
  });

  it('goes to the parent when the deleted folder is still open', async () => {
    mockFetch({ 'POST api/v1/assets/1/2/delete': () => jsonResponse([{ file: '/a/b', result: true }]) });
    const { onPathChange, hook } = setup('/a/b');
    act(() => hook.result.current.deleteFolder.run('/a/b'));
    await waitFor(() => expect(onPathChange).toHaveBeenCalledWith('/a'));
  });

  it('renaming the open folder keeps the thumbnail token: the grid still shown asks for no old path', async () => {
    const fetch = mockFetch({
      'PUT api/v1/assets/1/2/folder/rename': () =>
        jsonResponse({ name: 'new', path: '/new', type: 'DIR', children: [] }),
    });
    const { client, onPathChange, hook } = setup('/old');
    client.setQueryData(assetKeys.thumbnailToken('1', '2'), { token: 't1', expiresIn: 600 });
    act(() => hook.result.current.renameFolder.run('new'));
    await waitFor(() => expect(onPathChange).toHaveBeenCalledWith('/new'));
    await waitFor(() => expect(hook.result.current.renameFolder.pending).toBe(false));
    expect(client.getQueryState(assetKeys.thumbnailToken('1', '2'))?.isInvalidated).toBe(false);
    expect(fetch.mock.calls.filter(([url]) => String(url).includes('/token'))).toEqual([]);
  });

  it('renaming the open folder forgets the old path instead of asking for it again', async () => {
    const fetch = mockFetch({
      'PUT api/v1/assets/1/2/folder/rename': () =>
        jsonResponse({ name: 'new', path: '/new', type: 'DIR', children: [] }),
    });
    const { client, onPathChange, hook } = setup('/old');
    client.setQueryData(assetKeys.folder('1', '2', '/old'), { name: 'old', path: '/old', type: 'DIR', children: [] });
    act(() => hook.result.current.renameFolder.run('new'));
    await waitFor(() => expect(onPathChange).toHaveBeenCalledWith('/new'));
    await waitFor(() => expect(hook.result.current.renameFolder.pending).toBe(false));
    expect(client.getQueryData(assetKeys.folder('1', '2', '/old'))).toBeUndefined();
    const oldReads = fetch.mock.calls.filter(([url]) => String(url).includes('/src/old'));
    expect(oldReads).toEqual([]);
  });

  it('renaming a folder still shown (the tree until its parent is read again) reads nothing of the old path', async () => {
    storeTokens({ id_token: jwtExpiringIn(900) });
    const fetch = mockFetch({
      'GET api/v1/assets/1/2/src/old': () => jsonResponse({ name: 'old', path: '/old', type: 'DIR', children: [] }),
      'GET api/v1/assets/1/2/src/new': () => jsonResponse({ name: 'new', path: '/new', type: 'DIR', children: [] }),
      'PUT api/v1/assets/1/2/folder/rename': () =>
        jsonResponse({ name: 'new', path: '/new', type: 'DIR', children: [] }),
    });
    const client = createQueryClient();
    const onPathChange = vi.fn();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    // The open folder, and a view of a folder (the tree's node of the old one).
    const hook = renderHook(
      ({ folder, shown }) => {
        useFolder('1', '2', shown);
        return useAssetActions('1', '2', folder, onPathChange);
      },
      { wrapper, initialProps: { folder: '/old', shown: '/old' } },
    );
    const oldReads = () => fetch.mock.calls.filter(([url]) => String(url).includes('/src/old')).length;
    await waitFor(() => expect(client.getQueryData(assetKeys.folder('1', '2', '/old'))).toBeDefined());
    expect(oldReads()).toBe(1);

    act(() => hook.result.current.renameFolder.run('new'));
    await waitFor(() => expect(onPathChange).toHaveBeenCalledWith('/new'));
    await waitFor(() => expect(hook.result.current.renameFolder.pending).toBe(false));
    // The screen moved on; the tree still shows the old node once more, then not.
    hook.rerender({ folder: '/new', shown: '/old' });
    hook.rerender({ folder: '/new', shown: '/new' });
    await waitFor(() => expect(client.getQueryData(assetKeys.folder('1', '2', '/new'))).toBeDefined());
    expect(oldReads()).toBe(1);
    expect(client.getQueryState(assetKeys.folder('1', '2', '/old'))?.isInvalidated ?? true).toBe(true);
  });
});
