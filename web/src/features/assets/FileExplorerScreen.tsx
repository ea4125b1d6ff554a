import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isFolder, type Asset } from '../../api/assets';
import { PermissionView } from '../../ui/Restricted';
import { fileEditor } from '../../core/registry';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import { plural } from '../../lib/format';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { OpeningPortal } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { workspacePath } from '../../api/merge';
import { usePortalParams } from '../../core/usePortalParams';
import { OthersMark, usePortalActivity } from '../presence';
import { ErrorCountMark, errorCounts, findingPath, folderErrorCount, useFindingsByPath } from '../readiness';
import { AssetBrowser } from './AssetBrowser';
import { editModeOf, type EditMode } from './EditAction';
import { ExplorerToolbar } from './ExplorerToolbar';
import { FileNameDialog } from './FileNameDialog';
import { FolderNameDialog } from './FolderNameDialog';
import { UploadDialog } from './UploadDialog';
import { useAssetActions } from './useAssetActions';
import { useFolder, useSizeLimits } from './useAssetQueries';
import { useAssetSort, useAssetView } from './useAssetSort';
import { useDebouncedFolderRefresh } from './useDebouncedFolderRefresh';

/** File Explorer (spec 2 §2 "Asset manager"): …/file-explorer?path=/images. */
export default function FileExplorerScreen() {
  const { domain, portal, branch, opened } = usePortalParams();
  return (
    <PermissionView permission="asset:r">
      {opened ? (
        <ExplorerView key={`${domain}/${portal}/${branch}`} domain={domain} portal={portal} branch={branch} />
      ) : (
        <OpeningPortal title="File Explorer" />
      )}
    </PermissionView>
  );
}

type OpenDialog = 'add' | 'rename' | 'renameFile' | 'deleteFolder' | 'deleteAssets' | 'upload' | null;

const folderName = (path: string) => path.split('/').filter(Boolean).pop() ?? '';

function ExplorerView({ domain, portal, branch }: { domain: string; portal: string; branch: string }) {
  const [params, setParams] = useSearchParams();
  const path = params.get('path') || '/';
  const setPath = (next: string) => setParams(next === '/' ? {} : { path: next });
  // A file open in its editor: ?edit=<file>&mode=json|source (Back closes it), or, from the
  // Readiness screen, ?open=<file>&pointer=<JSON pointer>|line=<n>: a JSON file in the JSON
  // editor (its source when it has no schema), another in the source editor, at that place.
  const opening = params.get('edit') ? null : params.get('open');
  const editing = opening ? `/${findingPath(opening)}` : params.get('edit');
  const editMode: EditMode = (opening ? opening.toLowerCase().endsWith('.json') : params.get('mode') === 'json')
    ? 'json'
    : 'source';
  const at = { pointer: params.get('pointer') ?? undefined, line: Number(params.get('line')) || undefined };
  const openEditor = (asset: Asset) => {
    const mode = editModeOf(asset);
    if (mode) setParams({ ...(path === '/' ? {} : { path }), edit: asset.path, mode });
  };
  const closeEditor = () => setPath(path);

  const [view, setView] = useAssetView();
  const [sort, setSort] = useAssetSort();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [dropped, setDropped] = useState<File[]>([]);
  // Selecting another folder clears the grid selection (spec 2 §4).
  useEffect(() => setSelected(new Set()), [path]);

  const can = {
    create: usePermission('asset_create'),
    write: usePermission('asset_write'),
    remove: usePermission('asset_delete'),
  };
  const portalActive = useSelectionStore((s) => s.portalInfo?.status?.toLowerCase() === 'active');
  const folder = useFolder(domain, portal, path);
  const files = (folder.data?.children ?? []).filter((a) => !isFolder(a));
  const selectedFiles = files.filter((a) => selected.has(a.path));
  const limits = useSizeLimits();
  const actions = useAssetActions(domain, portal, path, setPath);
  const refreshAfterUpload = useDebouncedFolderRefresh(domain, portal, path);
  // Files other users are changing (uncommitted changes, or editing now) are marked.
  const activity = usePortalActivity(domain, portal);
  // Files with readiness errors of the caller's workspace are marked, their folders subtly.
  const byPath = useFindingsByPath(domain, portal, !editing);
  const errors = useMemo(() => errorCounts(byPath), [byPath]);
  const markOf = (asset: Asset) =>
    isFolder(asset) ? (
      <ErrorCountMark count={folderErrorCount(errors, asset.path)} subtle />
    ) : (
      <>
        <OthersMark activity={activity.get(workspacePath(asset.path))} />
        <ErrorCountMark count={errors.get(findingPath(asset.path)) ?? 0} />
      </>
    );

  const toggle = (asset: Asset) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(asset.path)) next.delete(asset.path);
      else next.add(asset.path);
      return next;
    });

  const openUpload = (files: File[] = []) => {
    setDropped(files);
    setDialog('upload');
  };

  if (editing) {
    // The editors come through the registry: they use this feature's asset picker (no feature loop).
    const FileEditor = fileEditor();
    return (
      <PageFrame title="File Explorer" intro={`Files of your workspace on ${branch}.`}>
        {FileEditor && (
          <FileEditor domain={domain} portal={portal} path={editing} mode={editMode} onClose={closeEditor} {...at} />
        )}
      </PageFrame>
    );
  }

  return (
    <PageFrame title="File Explorer" intro={`Files of your workspace on ${branch}.`}>
      <AssetBrowser
        domain={domain}
        portal={portal}
        branch={branch}
        path={path}
        onPathChange={setPath}
        view={view}
        sort={sort}
        onSortChange={setSort}
        selected={selected}
        selectable={can.write}
        onToggle={toggle}
        onDownload={can.write ? (asset) => actions.download.run([asset]) : undefined}
        onEdit={openEditor}
        markOf={markOf}
        onDropFiles={can.create ? openUpload : undefined}
        allowedExtensions={limits?.allowedExtensions}
        toolbar={
          <ExplorerToolbar
            abilities={{ ...can, isRoot: path === '/', portalActive, loading: folder.isFetching }}
            selectedCount={selectedFiles.length}
            fileCount={files.length}
            view={view}
            onViewChange={setView}
            onAddFolder={() => setDialog('add')}
            onRenameFolder={() => setDialog('rename')}
            onDeleteFolder={() => setDialog('deleteFolder')}
            onUpload={() => openUpload()}
            onDownload={() => actions.download.run(selectedFiles)}
            onRenameFile={() => setDialog('renameFile')}
            onDeleteAssets={() => setDialog('deleteAssets')}
            onSelectAll={() => setSelected(new Set(files.map((a) => a.path)))}
            onDeselectAll={() => setSelected(new Set())}
          />
        }
      />
      <FolderNameDialog
        open={dialog === 'add' || dialog === 'rename'}
        mode={dialog === 'rename' ? 'rename' : 'add'}
        currentName={folderName(path)}
        onSubmit={(name) =>
          dialog === 'rename' ? actions.renameFolder.submit(name) : actions.createFolder.submit(name)
        }
        onClose={() => setDialog(null)}
      />
      <FileNameDialog
        open={dialog === 'renameFile' && selectedFiles.length === 1}
        currentName={selectedFiles[0]?.name ?? ''}
        limits={limits}
        onSubmit={async (name) => {
          const [asset] = selectedFiles;
          if (!asset) return;
          await actions.renameFile.submit({ asset, name });
          setSelected(new Set());
        }}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'deleteFolder'}
        title="Delete Folder"
        message={`Delete the folder '${folderName(path)}'?`}
        confirmLabel="Delete"
        danger
        pending={actions.deleteFolder.pending}
        onConfirm={() => {
          actions.deleteFolder.run(path);
          setDialog(null);
        }}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'deleteAssets'}
        title="Delete Assets"
        message={`Delete ${plural(selectedFiles.length, 'asset')}?`}
        confirmLabel="Delete"
        danger
        pending={actions.deleteAssets.pending}
        onConfirm={() => {
          actions.deleteAssets.run(selectedFiles.map((a) => a.path));
          setSelected(new Set());
          setDialog(null);
        }}
        onClose={() => setDialog(null)}
      />
      {dialog === 'upload' && (
        <UploadDialog
          domain={domain}
          portal={portal}
          folder={path}
          existingNames={new Set(files.map((a) => a.name))}
          limits={limits}
          initialFiles={dropped}
          onFileUploaded={refreshAfterUpload}
          onClose={() => setDialog(null)}
        />
      )}
    </PageFrame>
  );
}
