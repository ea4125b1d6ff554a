import Box from '@mui/material/Box';
import { useEffect, useState } from 'react';
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
 * By keyboard, the keys of ui/Tree (the WAI tree pattern, issue 31): the arrows move between the
 * folders shown and open and close them, Home / End; Enter or Space selects. Each folder stays a
 * Tab stop as well.
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

  return (
    <Box component="ul" role="tree" aria-label="Folders" sx={{ listStyle: 'none', m: 0, p: 0, minWidth: 220 }}>
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
