import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { useState, type DragEvent, type ReactNode } from 'react';
import { useThumbnailToken, type Asset } from '../../api/assets';
import { LoadError, Loading } from '../../ui/Loading';
import { AssetGrid } from './AssetGrid';
import { AssetList } from './AssetList';
import { sortAssets } from './assetColumns';
import { EmptyFolder } from './EmptyFolder';
import { FolderTree } from './FolderTree';
import { ASSET_MESSAGES } from './messages';
import { useFolder } from './useAssetQueries';
import type { AssetSort } from './useAssetSort';

export type AssetView = 'grid' | 'list';

export interface AssetBrowserProps {
  domain: string;
  portal: string;
  branch: string;
  /** The selected folder. */
  path: string;
  onPathChange: (path: string) => void;
  view: AssetView;
  sort: AssetSort;
  onSortChange: (sort: AssetSort) => void;
  selected: ReadonlySet<string>;
  selectable: boolean;
  onToggle: (asset: Asset) => void;
  /** Which children are shown (pickers hide folders, dot-files, excluded extensions). */
  visible?: (asset: Asset) => boolean;
  onDownload?: (asset: Asset) => void;
  /** Opens a file in its editor (the explorer only). */
  onEdit?: (asset: Asset) => void;
  /** Files dropped onto the manager (absent: dropping does nothing). */
  onDropFiles?: (files: File[]) => void;
  allowedExtensions?: readonly string[];
  /** Shown above the assets (the toolbar). */
  toolbar?: ReactNode;
  /** A mark beside a file's name (the explorer: other users changing it). */
  markOf?: (asset: Asset) => ReactNode;
}

/** The tree at the left and the selected folder's assets at the right, in grid or list view. */
export function AssetBrowser(props: AssetBrowserProps) {
  const { domain, portal, branch, path, onPathChange, view, sort, visible, onDropFiles } = props;
  const folder = useFolder(domain, portal, path);
  const token = useThumbnailToken(domain, portal, view === 'grid');
  const [dragging, setDragging] = useState(false);
  const children = sortAssets(
    (folder.data?.children ?? []).filter(visible ?? (() => true)),
    sort.column,
    sort.direction,
  );

  const dropHandlers = onDropFiles
    ? {
        onDragOver: (e: DragEvent) => {
          e.preventDefault();
          setDragging(true);
        },
        onDragLeave: () => setDragging(false),
        onDrop: (e: DragEvent) => {
          e.preventDefault();
          setDragging(false);
          const files = [...e.dataTransfer.files];
          if (files.length > 0) onDropFiles(files);
        },
      }
    : {};

  let content: ReactNode;
  if (folder.isPending) content = <Loading label="Loading assets" />;
  else if (folder.isError && !folder.data)
    content = (
      <LoadError title={ASSET_MESSAGES.childrenFailed} error={folder.error} onRetry={() => void folder.refetch()} />
    );
  else if (children.length === 0) content = <EmptyFolder allowedExtensions={props.allowedExtensions} />;
  else if (view === 'grid')
    content = (
      <AssetGrid
        domain={domain}
        portal={portal}
        branch={branch}
        assets={children}
        selected={props.selected}
        selectable={props.selectable}
        onToggle={props.onToggle}
        onOpenFolder={onPathChange}
        thumbnailToken={token}
        onEdit={props.onEdit}
        markOf={props.markOf}
      />
    );
  else
    content = (
      <AssetList
        assets={children}
        selected={props.selected}
        selectable={props.selectable}
        onToggle={props.onToggle}
        onOpenFolder={onPathChange}
        sort={sort}
        onSortChange={props.onSortChange}
        onDownload={props.onDownload}
        onEdit={props.onEdit}
        markOf={props.markOf}
      />
    );

  return (
    // On a phone the tree is above the assets, each the screen's width (issue 22).
    <Box
      sx={{
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        gap: 2,
        alignItems: { xs: 'stretch', sm: 'flex-start' },
        minHeight: 300,
      }}
    >
      <Paper
        variant="outlined"
        sx={{ p: 1, flex: '0 0 auto', maxWidth: { sm: 320 }, maxHeight: { xs: '40vh', sm: 'none' }, overflow: 'auto' }}
      >
        <FolderTree domain={domain} portal={portal} selected={path} onSelect={onPathChange} />
      </Paper>
      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          outline: dragging ? '2px dashed' : undefined,
          outlineColor: 'primary.main',
          borderRadius: 1,
        }}
        data-testid="asset-drop-zone"
        {...dropHandlers}
      >
        {props.toolbar}
        {content}
      </Box>
    </Box>
  );
}
