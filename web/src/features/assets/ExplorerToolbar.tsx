import GridIcon from '@mui/icons-material/GridViewOutlined';
import MoreIcon from '@mui/icons-material/MoreVert';
import ListIcon from '@mui/icons-material/ViewListOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState } from 'react';
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

/** Below MUI's `sm` breakpoint (600 px, a phone): the actions other than Upload are in a menu. */
export const COMPACT_TOOLBAR = '(max-width:599.95px)';

interface ToolbarAction {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  danger?: boolean;
}

/**
 * The explorer's actions; an action the user may not take is not shown. On a phone Upload
 * stays a button and the others go behind 'More actions' (issue 22), so every one is reachable
 * and none is squeezed beside the folder tree.
 */
export function ExplorerToolbar({ abilities: can, selectedCount, fileCount, view, ...on }: ExplorerToolbarProps) {
  const compact = useMediaQuery(COMPACT_TOOLBAR, { noSsr: true });
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const folderActions: ToolbarAction[] = [
    ...(can.create ? [{ label: 'Add Folder', onClick: on.onAddFolder }] : []),
    ...(can.write && !can.isRoot ? [{ label: 'Rename Folder', onClick: on.onRenameFolder }] : []),
    ...(can.remove && can.portalActive && !can.isRoot
      ? [{ label: 'Delete Folder', onClick: on.onDeleteFolder, disabled: can.loading, danger: true }]
      : []),
  ];
  const fileActions: ToolbarAction[] = [
    ...(can.write ? [{ label: 'Download', onClick: on.onDownload, disabled: selectedCount === 0 }] : []),
    ...(can.write ? [{ label: 'Rename', onClick: on.onRenameFile, disabled: selectedCount !== 1 }] : []),
    ...(can.remove
      ? [{ label: 'Delete', onClick: on.onDeleteAssets, disabled: selectedCount === 0, danger: true }]
      : []),
    ...(can.write
      ? [
          {
            label: 'Select All',
            onClick: on.onSelectAll,
            disabled: fileCount === 0 || selectedCount === fileCount,
          },
          { label: 'Deselect All', onClick: on.onDeselectAll, disabled: selectedCount === 0 },
        ]
      : []),
  ];
  const upload = can.create && (
    <Button variant="contained" onClick={on.onUpload}>
      Upload
    </Button>
  );
  const button = (action: ToolbarAction) => (
    <Button
      key={action.label}
      color={action.danger ? 'error' : undefined}
      onClick={action.onClick}
      disabled={action.disabled}
    >
      {action.label}
    </Button>
  );
  const menuActions = [...folderActions, ...fileActions];

  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      role="toolbar"
      aria-label="File Explorer actions"
      sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 2 }}
    >
      {compact ? (
        <>
          {upload}
          {menuActions.length > 0 && (
            <>
              <IconButton
                aria-label="More actions"
                aria-haspopup="menu"
                aria-controls={menuAnchor ? menuId : undefined}
                aria-expanded={menuAnchor ? true : undefined}
                onClick={(event) => setMenuAnchor(event.currentTarget)}
              >
                <MoreIcon />
              </IconButton>
              <Menu
                id={menuId}
                anchorEl={menuAnchor}
                open={menuAnchor !== null}
                onClose={() => setMenuAnchor(null)}
                slotProps={{ list: { 'aria-label': 'More actions' } }}
              >
                {menuActions.map((action) => (
                  <MenuItem
                    key={action.label}
                    disabled={action.disabled}
                    sx={action.danger ? { color: 'error.main' } : undefined}
                    onClick={() => {
                      setMenuAnchor(null);
                      action.onClick();
                    }}
                  >
                    {action.label}
                  </MenuItem>
                ))}
              </Menu>
            </>
          )}
        </>
      ) : (
        <>
          {folderActions.map(button)}
          {upload}
          {fileActions.map(button)}
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
