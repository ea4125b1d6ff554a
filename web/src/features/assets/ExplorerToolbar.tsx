import GridIcon from '@mui/icons-material/GridViewOutlined';
import ListIcon from '@mui/icons-material/ViewListOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { AssetView } from './AssetBrowser';

/** What the user may do here (spec 2 §6 gates) and the state the buttons depend on. */
export interface ExplorerAbilities {
  /** asset_create: add folder, upload. */
  create: boolean;
  /** asset_write: rename, download, select. */
  write: boolean;
  /** asset_delete: delete folder and assets. */
  remove: boolean;
  isRoot: boolean;
  /** Folder deletion is offered only for an active portal. */
  portalActive: boolean;
  /** The folder still loads (no delete meanwhile). */
  loading: boolean;
}

interface ExplorerToolbarProps {
  abilities: ExplorerAbilities;
  selectedCount: number;
  fileCount: number;
  view: AssetView;
  onViewChange: (view: AssetView) => void;
  onAddFolder: () => void;
  onRenameFolder: () => void;
  onDeleteFolder: () => void;
  onUpload: () => void;
  onDownload: () => void;
  /** Renames the one selected file. */
  onRenameFile: () => void;
  onDeleteAssets: () => void;
  onSelectAll: () => void;
  onDeselectAll: () => void;
}

/** The explorer's actions; an action the user may not take is not shown. */
export function ExplorerToolbar({ abilities: can, selectedCount, fileCount, view, ...on }: ExplorerToolbarProps) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
      {can.create && <Button onClick={on.onAddFolder}>Add Folder</Button>}
      {can.write && !can.isRoot && <Button onClick={on.onRenameFolder}>Rename Folder</Button>}
      {can.remove && can.portalActive && !can.isRoot && (
        <Button color="error" onClick={on.onDeleteFolder} disabled={can.loading}>
          Delete Folder
        </Button>
      )}
      {can.create && (
        <Button variant="contained" onClick={on.onUpload}>
          Upload
        </Button>
      )}
      {can.write && (
        <Button onClick={on.onDownload} disabled={selectedCount === 0}>
          Download
        </Button>
      )}
      {can.write && (
        <Button onClick={on.onRenameFile} disabled={selectedCount !== 1}>
          Rename
        </Button>
      )}
      {can.remove && (
        <Button color="error" onClick={on.onDeleteAssets} disabled={selectedCount === 0}>
          Delete
        </Button>
      )}
      {can.write && (
        <>
          <Button onClick={on.onSelectAll} disabled={fileCount === 0 || selectedCount === fileCount}>
            Select All
          </Button>
          <Button onClick={on.onDeselectAll} disabled={selectedCount === 0}>
            Deselect All
          </Button>
        </>
      )}
      <ToggleButtonGroup
        size="small"
        exclusive
        value={view}
        onChange={(_, next: AssetView | null) => next && on.onViewChange(next)}
        sx={{ ml: 'auto' }}
      >
        <ToggleButton value="grid" aria-label="Grid view">
          <GridIcon fontSize="small" />
        </ToggleButton>
        <ToggleButton value="list" aria-label="List view">
          <ListIcon fontSize="small" />
        </ToggleButton>
      </ToggleButtonGroup>
    </Stack>
  );
}
