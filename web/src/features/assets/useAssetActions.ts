/** The explorer's mutations, each through useAction (toasts, invalidation, pending). */
import { useQueryClient, type Query, type QueryKey } from '@tanstack/react-query';
import { assetApi, assetKeys, childPath, parentPath, type Asset } from '../../api/assets';
import { ApiError } from '../../api/errors';
import { currentRoute } from '../../core/location';
import { toasts } from '../../core/toastService';
import { plural } from '../../lib/format';
import { saveBlob } from '../../lib/saveBlob';
import { useAction } from '../../ui/useAction';
import { deleteFailures } from './deleteResults';
import { ASSET_MESSAGES, REFERENCE_TOAST_MS } from './messages';

const folderName = (path: string) => path.split('/').filter(Boolean).pop() ?? '/';

/** Whether an asset query's key ([...assetKeys.all, kind, path]) is of `folder` or a path below it. */
function isUnder(key: QueryKey, allLength: number, folder: string): boolean {
  const path = key[allLength + 1];
  return typeof path === 'string' && (path === folder || path.startsWith(`${folder}/`));
}

/**
 * `folder` is the folder shown. A folder action that moves the author (to the renamed folder, to
 * the deleted folder's parent) does so only when the author is still where the action started:
 * the route is the browser's (currentRoute), which is ahead of the rendered one while a
 * navigation renders, so a late answer never overrides a folder the author opened since.
 */
export function useAssetActions(domain: string, portal: string, folder: string, onPathChange: (path: string) => void) {
  const all = assetKeys.all(domain, portal);
  const queryClient = useQueryClient();
  const moveIfStillAt = (route: string, path: string) => {
    if (currentRoute() === route) onPathChange(path);
  };

  const createFolder = useAction({
    action: (name: string) => assetApi.createFolder(domain, portal, childPath(folder, name)),
    failure: ASSET_MESSAGES.createFolderFailed,
    invalidate: [assetKeys.folder(domain, portal, folder)],
  });

  const renameFolder = useAction({
    action: async (name: string) => ({
      from: folder,
      route: currentRoute(),
      renamed: await assetApi.renameFolder(domain, portal, folder, childPath(parentPath(folder), name)),
    }),
    failure: ASSET_MESSAGES.renameFolderFailed,
    onSuccess: async ({ from, route, renamed }: { from: string; route: string; renamed: Asset }) => {
      // Go to the new path, then read the other folder listings again (the parent lists the new
      // name), never those of the old path (and below it): they would ask for a folder that no
      // longer exists (404). They are not dropped while a view still shows them either (the
      // tree until the parent is read again, the screen until the navigation renders): a view
      // re-rendered on a dropped query reads it again. The thumbnail token stays: a new one
      // would give the old grid, still shown until then, new URLs of old paths (404s).
      moveIfStillAt(route, renamed.path);
      const isOld = (query: Query) => isUnder(query.queryKey, all.length, from);
      const isListing = (query: Query) => query.queryKey[all.length] === 'folder';
      await queryClient.cancelQueries({ queryKey: all, predicate: isOld });
      await queryClient.invalidateQueries({ queryKey: all, predicate: (query) => isListing(query) && !isOld(query) });
      // Those no view shows any more are forgotten now, the others once unused (marked stale
      // without a read, so a folder made again under the old name is read afresh).
      await queryClient.invalidateQueries({ queryKey: all, predicate: isOld, refetchType: 'none' });
      for (const query of queryClient.getQueryCache().findAll({ queryKey: all, predicate: isOld }))
        if (query.getObserversCount() === 0) queryClient.removeQueries({ queryKey: query.queryKey, exact: true });
    },
  });

  const renameFile = useAction({
    action: ({ asset, name }: { asset: Asset; name: string }) =>
      assetApi.renameFile(domain, portal, asset.path, childPath(folder, name)),
    failure: ASSET_MESSAGES.renameFileFailed,
    invalidate: [assetKeys.folder(domain, portal, folder)],
  });

  // The folder to delete (the open one) travels with the call, and so does the route it was
  // open at: by the time it answers the author may have opened another folder, which stays open.
  const deleteFolder = useAction({
    action: async (path: string) => {
      const route = currentRoute();
      const [result] = await assetApi.remove(domain, portal, [path]);
      const failure = result ? deleteFailures([result])[0] : undefined;
      if (failure) throw new ApiError({ httpStatus: 409, errorMessage: failure.message });
      return route;
    },
    failure: (path: string) => ASSET_MESSAGES.deleteFolderFailed(folderName(path)),
    invalidate: (_: string, path: string) => [assetKeys.folder(domain, portal, parentPath(path))],
    onSuccess: (route: string, path: string) => {
      queryClient.removeQueries({ queryKey: assetKeys.folder(domain, portal, path) });
      moveIfStillAt(route, parentPath(path));
    },
  });

  const deleteAssets = useAction({
    action: (paths: string[]) => assetApi.remove(domain, portal, paths),
    failure: ASSET_MESSAGES.deleteAssetsFailed,
    invalidate: [assetKeys.folder(domain, portal, folder)],
    onSuccess: (results) => {
      const failures = deleteFailures(results);
      const deleted = results.length - failures.length;
      if (deleted > 0) toasts.success(`${plural(deleted, 'asset')} deleted.`);
      for (const failure of failures) {
        const message =
          failure.referencedBy.length > 0
            ? `${failure.file}: ${failure.message} Used by: ${failure.referencedBy.join(', ')}`
            : `${failure.file}: ${failure.message}`;
        toasts.danger(message, ASSET_MESSAGES.deleteAssetsFailed, {
          timeOut: failure.referencedBy.length > 0 ? REFERENCE_TOAST_MS : undefined,
          closeButton: true,
        });
      }
    },
  });

  const download = useAction({
    action: async (assets: Asset[]) => {
      for (const asset of assets) saveBlob(await assetApi.download(domain, portal, asset.path), asset.name);
    },
    failure: ASSET_MESSAGES.downloadFailed,
  });

  return { createFolder, renameFolder, renameFile, deleteFolder, deleteAssets, download };
}
