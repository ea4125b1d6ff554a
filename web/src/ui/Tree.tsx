/**
 * A tree of selectable rows (the sitemap pickers, the Page Manager's sitemap): MUI List with
 * tree semantics (role tree / treeitem / group, aria-level, aria-expanded, aria-selected).
 * A node with children has an expand / collapse button ('Expand X', 'Collapse X'); a click on
 * the row selects it. From the keyboard, on a row: ArrowRight opens it (or goes to its first
 * child), ArrowLeft closes it (or goes to its parent), ArrowDown / ArrowUp go to the next /
 * previous shown row, Home / End to the first / last; Enter or Space selects.
 * What a tree shows of a node (its label, marks, attributes) is the caller's.
 */
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import type { SxProps, Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

/** Attributes a tree puts on a node's treeitem: data-* and aria-* ones. */
export type TreeItemAttributes = Record<`data-${string}` | `aria-${string}`, string | boolean | undefined>;

export interface TreeProps<T> {
  root: T;
  /** The tree's accessible name. */
  label: string;
  idOf: (node: T) => string;
  childrenOf: (node: T) => readonly T[];
  /** The node's name in its expand / collapse button ('Expand Home'). */
  nameOf: (node: T) => string;
  /** Whether a node starts open (until the user toggles it). */
  startsOpen: (node: T) => boolean;
  selectedId: string | null;
  onSelect: (node: T) => void;
  /**
   * What the row's button shows. With `namedByTitle`, the element carrying `titleId` names the
   * treeitem (otherwise its content does, its open children's rows included).
   */
  renderLabel: (node: T, titleId: string) => ReactNode;
  namedByTitle?: boolean;
  /** Shown after the row's button (a mark). */
  renderAfter?: (node: T) => ReactNode;
  /** The row's tooltip (it describes the row). */
  tooltipOf?: (node: T) => string;
  /** The treeitem's extra attributes (data-page-id, aria-invalid…). */
  attributesOf?: (node: T) => TreeItemAttributes;
  /** The row button's style. */
  rowSx?: (node: T) => SxProps<Theme>;
  /** Indentation per level, in theme spacing units. */
  indent?: number;
}

/** Marks a row's button (the keyboard moves between them): Tree's rows, the folder tree's (features/assets). */
const ROW = 'data-tree-row';

/**
 * The keys of the WAI tree pattern on a row (`event.currentTarget`, marked data-tree-row, in a
 * role="tree"): ArrowRight opens a closed row that has children (`toggle`) or goes to its first
 * child, ArrowLeft closes an open row or goes to its parent, ArrowDown / ArrowUp go to the next /
 * previous row shown, Home / End to the first / last. Other keys are left alone.
 */
export function onTreeRowKeyDown(
  event: KeyboardEvent<HTMLElement>,
  { open, hasChildren, toggle }: { open: boolean; hasChildren: boolean; toggle: () => void },
) {
  const row = event.currentTarget;
  const rows = Array.from(row.closest('[role="tree"]')?.querySelectorAll<HTMLElement>(`[${ROW}]`) ?? []);
  const index = rows.indexOf(row);
  const item = row.closest('[role="treeitem"]');
  let next: HTMLElement | null | undefined;
  switch (event.key) {
    case 'ArrowRight':
      if (hasChildren && !open) toggle();
      else if (open) next = item?.querySelector<HTMLElement>(`[role="group"] [${ROW}]`);
      break;
    case 'ArrowLeft':
      if (hasChildren && open) toggle();
      else next = item?.parentElement?.closest('[role="treeitem"]')?.querySelector<HTMLElement>(`[${ROW}]`);
      break;
    case 'ArrowDown':
      next = rows[index + 1];
      break;
    case 'ArrowUp':
      next = rows[index - 1];
      break;
    case 'Home':
      next = rows[0];
      break;
    case 'End':
      next = rows[rows.length - 1];
      break;
    default:
      return;
  }
  event.preventDefault();
  next?.focus();
}

export function Tree<T>(props: TreeProps<T>) {
  const { root, label, idOf, startsOpen } = props;
  // The nodes the user toggled: open is `startsOpen` unless toggled (so new nodes start as told).
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const isOpen = (node: T) => startsOpen(node) !== toggled.has(idOf(node));
  const toggle = (id: string) =>
    setToggled((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <List role="tree" aria-label={label} dense disablePadding>
      <TreeNode {...props} node={root} depth={0} isOpen={isOpen} onToggle={toggle} />
    </List>
  );
}

interface NodeProps<T> extends TreeProps<T> {
  node: T;
  depth: number;
  isOpen: (node: T) => boolean;
  onToggle: (id: string) => void;
}

function TreeNode<T>(props: NodeProps<T>) {
  const { node, depth, idOf, childrenOf, nameOf, selectedId, onSelect, isOpen, onToggle } = props;
  const { renderLabel, namedByTitle, renderAfter, tooltipOf, attributesOf, rowSx, indent = 2 } = props;
  const id = idOf(node);
  const children = childrenOf(node);
  const hasChildren = children.length > 0;
  const open = hasChildren && isOpen(node);
  const selected = selectedId === id;
  const name = nameOf(node);
  const titleId = `${useId()}-title`;
  const row = (
    <ListItemButton
      data-tree-row=""
      selected={selected}
      onClick={() => onSelect(node)}
      onKeyDown={(e) => onTreeRowKeyDown(e, { open, hasChildren, toggle: () => onToggle(id) })}
      sx={rowSx?.(node)}
    >
      {renderLabel(node, titleId)}
    </ListItemButton>
  );
  const tooltip = tooltipOf?.(node);
  return (
    <Box
      component="li"
      role="treeitem"
      aria-level={depth + 1}
      aria-expanded={hasChildren ? open : undefined}
      aria-selected={selected}
      aria-labelledby={namedByTitle ? titleId : undefined}
      {...attributesOf?.(node)}
      sx={{ listStyle: 'none' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * indent }}>
        {hasChildren ? (
          <IconButton
            size="small"
            aria-label={`${open ? 'Collapse' : 'Expand'} ${name}`}
            onClick={() => onToggle(id)}
            tabIndex={-1}
          >
            {open ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
          </IconButton>
        ) : (
          <Box sx={{ width: 34, flexShrink: 0 }} />
        )}
        {tooltip === undefined ? (
          row
        ) : (
          <Tooltip title={tooltip} placement="right" describeChild>
            {row}
          </Tooltip>
        )}
        {renderAfter?.(node)}
      </Box>
      {open && (
        <Box component="ul" role="group" sx={{ m: 0, p: 0 }}>
          {children.map((child) => (
            <TreeNode key={idOf(child)} {...props} node={child} depth={depth + 1} />
          ))}
        </Box>
      )}
    </Box>
  );
}
