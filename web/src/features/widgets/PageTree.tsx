/**
 * The sitemap as a tree (spec 2 §2 "Page selector popover"): MUI List with tree semantics
 * (role tree / treeitem, aria-level, aria-expanded, aria-selected). Titles (the id when the
 * title is empty) with a tooltip; a page in an error state shows its message; an inactive page
 * is greyed. Hidden pages are filtered out; the root and its first two levels start expanded.
 */
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useMemo, useState } from 'react';
import type { SitemapPage } from '../../api/sitemap';
import { childrenOf, defaultExpandedIds, isInactivePage, pageError, pageLabel, withoutHidden } from './sitemapTree';

export interface PageTreeProps {
  root: SitemapPage;
  selectedId?: string | null;
  onSelect: (page: SitemapPage) => void;
  /** The tree's accessible name. */
  label?: string;
}

export function PageTree({ root, selectedId, onSelect, label = 'Sitemap' }: PageTreeProps) {
  const visibleRoot = useMemo(() => withoutHidden(root), [root]);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(defaultExpandedIds(visibleRoot)));
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <List role="tree" aria-label={label} dense disablePadding>
      <PageTreeItem
        page={visibleRoot}
        depth={0}
        expanded={expanded}
        onToggle={toggle}
        selectedId={selectedId ?? null}
        onSelect={onSelect}
      />
    </List>
  );
}

interface ItemProps {
  page: SitemapPage;
  depth: number;
  expanded: Set<string>;
  onToggle: (id: string) => void;
  selectedId: string | null;
  onSelect: (page: SitemapPage) => void;
}

function PageTreeItem({ page, depth, expanded, onToggle, selectedId, onSelect }: ItemProps) {
  const children = childrenOf(page);
  const hasChildren = children.length > 0;
  const open = hasChildren && expanded.has(page.id);
  const label = pageLabel(page);
  const error = pageError(page);
  const inactive = isInactivePage(page);
  const selected = selectedId === page.id;
  // Named by its own title, not by its content (which holds its open children's titles too).
  const titleId = `${useId()}-title`;
  return (
    <Box
      component="li"
      role="treeitem"
      aria-level={depth + 1}
      aria-expanded={hasChildren ? open : undefined}
      aria-selected={selected}
      aria-labelledby={titleId}
      aria-invalid={error ? true : undefined}
      data-error={error ?? undefined}
      data-page-id={page.id}
      data-inactive={inactive ? 'true' : undefined}
      sx={{ listStyle: 'none' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 2 }}>
        {hasChildren ? (
          <IconButton
            size="small"
            aria-label={`${open ? 'Collapse' : 'Expand'} ${label}`}
            onClick={() => onToggle(page.id)}
            tabIndex={-1}
          >
            {open ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
          </IconButton>
        ) : (
          <Box sx={{ width: 34, flexShrink: 0 }} />
        )}
        <Tooltip title={error ?? label} placement="right" describeChild>
          <ListItemButton
            selected={selected}
            onClick={() => onSelect(page)}
            sx={{ py: 0.25, borderRadius: 1, color: inactive ? 'text.disabled' : error ? 'error.main' : undefined }}
          >
            <Typography id={titleId} variant="body2" noWrap sx={{ fontStyle: inactive ? 'italic' : undefined }}>
              {label}
            </Typography>
            {error && <ErrorIcon fontSize="small" color="error" sx={{ ml: 1 }} aria-hidden />}
          </ListItemButton>
        </Tooltip>
      </Box>
      {open && (
        <Box component="ul" role="group" sx={{ m: 0, p: 0 }}>
          {children.map((child) => (
            <PageTreeItem
              key={child.id}
              page={child}
              depth={depth + 1}
              expanded={expanded}
              onToggle={onToggle}
              selectedId={selectedId}
              onSelect={onSelect}
            />
          ))}
        </Box>
      )}
    </Box>
  );
}
