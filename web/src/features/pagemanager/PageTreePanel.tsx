import AddIcon from '@mui/icons-material/Add';
import ArrowDownIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpIcon from '@mui/icons-material/ArrowUpward';
import CopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import MoveIcon from '@mui/icons-material/DriveFileMoveOutlined';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { SitemapPage } from '../../api/sitemap';
import { PAGE_MANAGER_MESSAGES as MSG } from './model';
import { SitemapTree } from './SitemapTree';

export interface PageActions {
  /** What the user may do: page:c adds and clones, page:w edits and moves, page:d deletes. */
  can: { create: boolean; write: boolean; remove: boolean };
  /** The selected page is the master page (or none is selected): no edit, clone, delete or move. */
  isMaster: boolean;
  canMoveUp: boolean;
  canMoveDown: boolean;
  /** A move runs. */
  moving: boolean;
  onAdd: () => void;
  onEdit: () => void;
  onClone: () => void;
  onDelete: () => void;
  onMoveUp: () => void;
  onMoveDown: () => void;
  onMoveTo: () => void;
}

/** The page actions' toolbar over the sitemap tree. */
export function PageTreePanel({
  root,
  selectedId,
  onSelect,
  markOf,
  actions,
}: {
  root: SitemapPage;
  selectedId: string | null;
  onSelect: (page: SitemapPage) => void;
  markOf: (page: SitemapPage) => ReactNode;
  actions: PageActions;
}) {
  const { can, isMaster, moving } = actions;
  return (
    <Paper variant="outlined" sx={{ flex: 1, minWidth: 280, p: 1, width: '100%' }}>
      <Stack
        direction="row"
        role="toolbar"
        aria-label="Page actions"
        useFlexGap
        spacing={1}
        sx={{ flexWrap: 'wrap', p: 1 }}
      >
        {can.create && (
          <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={actions.onAdd}>
            Add page
          </Button>
        )}
        {can.write && (
          <Button size="small" startIcon={<EditIcon />} disabled={isMaster} onClick={actions.onEdit}>
            Edit page
          </Button>
        )}
        {can.create && (
          <Button size="small" startIcon={<CopyIcon />} disabled={isMaster} onClick={actions.onClone}>
            Clone page
          </Button>
        )}
        {can.remove && (
          <Button size="small" color="error" startIcon={<DeleteIcon />} disabled={isMaster} onClick={actions.onDelete}>
            Delete page
          </Button>
        )}
        {can.write && (
          <>
            <Button
              size="small"
              startIcon={<ArrowUpIcon />}
              disabled={!actions.canMoveUp || moving}
              onClick={actions.onMoveUp}
            >
              Move up
            </Button>
            <Button
              size="small"
              startIcon={<ArrowDownIcon />}
              disabled={!actions.canMoveDown || moving}
              onClick={actions.onMoveDown}
            >
              Move down
            </Button>
            <Button size="small" startIcon={<MoveIcon />} disabled={isMaster || moving} onClick={actions.onMoveTo}>
              Move to…
            </Button>
          </>
        )}
      </Stack>
      <Divider />
      {(root.children ?? []).length === 0 && (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {MSG.noPages}
        </Typography>
      )}
      <SitemapTree root={root} selectedId={selectedId} onSelect={onSelect} markOf={markOf} />
    </Paper>
  );
}
