import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FolderIcon from '@mui/icons-material/FolderOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { isFolder } from '../../api/assets';
import { onTreeRowKeyDown } from '../../ui/Tree';
import { ASSET_MESSAGES } from './messages';
import { useFolder } from './useAssetQueries';

interface FolderTreeNodeProps {
  domain: string;
  portal: string;
  path: string;
  /** The folder's name; the root is 'Portal root'. */
  name?: string;
  /** False for a folder known to hold no folders (no toggle). */
  hasChildren?: boolean;
  depth: number;
  selected: string;
  expanded: ReadonlySet<string>;
  onSelect: (path: string) => void;
  onToggle: (path: string) => void;
}

/** One folder of the tree; its sub-folders load when it is expanded. */
export function FolderTreeNode({
  domain,
  portal,
  path,
  name = ASSET_MESSAGES.rootName,
  hasChildren = true,
  depth,
  selected,
  expanded,
  onSelect,
  onToggle,
}: FolderTreeNodeProps) {
  const open = expanded.has(path);
  const folder = useFolder(domain, portal, path, open);
  const folders = (folder.data?.children ?? []).filter(isFolder);
  // Expanded once the children arrived (spec 2 §4): until then the node shows progress.
  const showChildren = open && !!folder.data;
  const isSelected = selected === path;
  return (
    <Box
      component="li"
      role="treeitem"
      aria-selected={isSelected}
      aria-expanded={hasChildren ? showChildren : undefined}
      // Named by its content, as in the WAI tree pattern (an aria-label would leave out the
      // visible names of its open subfolders); data-name finds a node by its own name.
      data-name={name}
      data-path={path}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 2 }}>
        {hasChildren ? (
          <IconButton
            size="small"
            aria-label={`${open ? 'Collapse' : 'Expand'} ${name}`}
            onClick={() => onToggle(path)}
            tabIndex={-1}
          >
            {open && folder.isFetching && !folder.data ? (
              <CircularProgress size={14} aria-hidden />
            ) : open ? (
              <ExpandMoreIcon fontSize="small" />
            ) : (
              <ChevronRightIcon fontSize="small" />
            )}
          </IconButton>
        ) : (
          <Box sx={{ width: 34 }} />
        )}
        <ButtonBase
          // A row of the tree for its keys (ui/Tree onTreeRowKeyDown).
          data-tree-row=""
          onKeyDown={(e) => onTreeRowKeyDown(e, { open, hasChildren, toggle: () => onToggle(path) })}
          onClick={() => {
            onSelect(path);
            if (!open) onToggle(path);
          }}
          sx={{
            gap: 0.5,
            px: 0.5,
            py: 0.25,
            borderRadius: 1,
            justifyContent: 'flex-start',
            bgcolor: isSelected ? 'action.selected' : undefined,
          }}
        >
          <FolderIcon fontSize="small" color="action" aria-hidden />
          <Typography variant="body2" sx={{ fontWeight: isSelected ? 600 : undefined }}>
            {name}
          </Typography>
        </ButtonBase>
      </Box>
      {folder.isError && open && (
        <Typography variant="caption" color="error" sx={{ pl: depth * 2 + 5 }}>
          {ASSET_MESSAGES.childrenFailed}
        </Typography>
      )}
      {showChildren && folders.length > 0 && (
        <Box component="ul" role="group" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {folders.map((child) => (
            <FolderTreeNode
              key={child.path}
              domain={domain}
              portal={portal}
              path={child.path}
              name={child.name}
              hasChildren={child.hasChildren ?? true}
              depth={depth + 1}
              selected={selected}
              expanded={expanded}
              onSelect={onSelect}
              onToggle={onToggle}
            />
          ))}
        </Box>
      )}
    </Box>
  );
}
