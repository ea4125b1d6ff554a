import Box from '@mui/material/Box';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { parentPath } from '../../api/assets';
import { FolderTreeNode } from './FolderTreeNode';

export interface FolderTreeProps {
  domain: string;
  portal: string;
  /** The selected folder's path ('/' for the root). */
  selected: string;
  onSelect: (path: string) => void;
}

/** The folder and its ancestors: expanded so a deep ?path= shows where it is. */
function withAncestors(path: string): string[] {
  const list = [path];
  for (let p = path; p !== '/'; p = parentPath(p)) list.push(parentPath(p));
  return list;
}

/**
 * The folder tree rooted at 'Portal root' (path '/'). Selecting a node loads its children and
 * then expands it (a node shows its children once they arrived); the toggle collapses it again.
 * By keyboard (the WAI tree pattern, issue 31): Up and Down move between the folders shown, Home
 * and End to the first and last; Right opens a closed folder or moves into an open one, Left
 * closes an open folder or moves to its parent; Enter or Space selects. Each folder stays a Tab
 * stop as well.
 */
export function FolderTree({ domain, portal, selected, onSelect }: FolderTreeProps) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(withAncestors(selected)));
  useEffect(() => {
    setExpanded((current) => {
      const missing = withAncestors(selected).filter((p) => !current.has(p));
      return missing.length === 0 ? current : new Set([...current, ...missing]);
    });
  }, [selected]);

  const toggle = (path: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  function onKeyDown(e: KeyboardEvent<HTMLElement>) {
    const buttons = [...e.currentTarget.querySelectorAll<HTMLElement>('[data-folder-path]')];
    const index = buttons.indexOf(e.target as HTMLElement);
    if (index < 0) return;
    const path = buttons[index].dataset.folderPath ?? '';
    const item = buttons[index].closest('[role="treeitem"]');
    const hasChildren = item?.hasAttribute('aria-expanded') ?? false;
    const open = expanded.has(path);
    let next: HTMLElement | null | undefined;
    if (e.key === 'ArrowDown') next = buttons[index + 1];
    else if (e.key === 'ArrowUp') next = buttons[index - 1];
    else if (e.key === 'Home') next = buttons[0];
    else if (e.key === 'End') next = buttons[buttons.length - 1];
    else if (e.key === 'ArrowRight') {
      if (hasChildren && !open) toggle(path);
      else next = item?.querySelector<HTMLElement>('[role="group"] [data-folder-path]');
    } else if (e.key === 'ArrowLeft') {
      if (hasChildren && open) toggle(path);
      else next = item?.parentElement?.closest('[role="treeitem"]')?.querySelector<HTMLElement>('[data-folder-path]');
    } else return;
    e.preventDefault();
    next?.focus();
  }

  return (
    <Box
      component="ul"
      role="tree"
      aria-label="Folders"
      onKeyDown={onKeyDown}
      sx={{ listStyle: 'none', m: 0, p: 0, minWidth: 220 }}
    >
      <FolderTreeNode
        domain={domain}
        portal={portal}
        path="/"
        depth={0}
        selected={selected}
        expanded={expanded}
        onSelect={onSelect}
        onToggle={toggle}
      />
    </Box>
  );
}
