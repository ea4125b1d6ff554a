/**
 * The Page Manager's sitemap tree: every page (hidden ones too, marked), its title, id and
 * status; the master page at the root. Tree semantics (role tree / treeitem, aria-level,
 * aria-expanded, aria-selected); every level starts expanded.
 */
import ChevronRight from '@mui/icons-material/ChevronRight';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import type { SitemapPage } from '../../api/sitemap';

export interface SitemapTreeProps {
  root: SitemapPage;
  selectedId: string | null;
  onSelect: (page: SitemapPage) => void;
  /** A mark after a page (other users changing its file). */
  markOf?: (page: SitemapPage) => ReactNode;
}

export function SitemapTree({ root, selectedId, onSelect, markOf }: SitemapTreeProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <List role="tree" aria-label="Sitemap" dense disablePadding>
      <Item
        page={root}
        depth={0}
        collapsed={collapsed}
        onToggle={toggle}
        selectedId={selectedId}
        onSelect={onSelect}
        markOf={markOf}
      />
    </List>
  );
}

interface ItemProps {
  page: SitemapPage;
  depth: number;
  collapsed: ReadonlySet<string>;
  onToggle: (id: string) => void;
  selectedId: string | null;
  onSelect: (page: SitemapPage) => void;
  markOf?: (page: SitemapPage) => ReactNode;
}

function Item({ page, depth, collapsed, onToggle, selectedId, onSelect, markOf }: ItemProps) {
  const children = page.children ?? [];
  const hasChildren = children.length > 0;
  const open = hasChildren && !collapsed.has(page.id);
  const label = page.title?.trim() || page.id;
  const selected = selectedId === page.id;
  const draft = (page.status ?? '').toUpperCase() === 'DRAFT';
  return (
    <Box
      component="li"
      role="treeitem"
      aria-level={depth + 1}
      aria-expanded={hasChildren ? open : undefined}
      aria-selected={selected}
      data-page-id={page.id}
      data-hidden={page.hidePage ? 'true' : undefined}
      data-status={page.status || undefined}
      sx={{ listStyle: 'none' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 3 }}>
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
        <ListItemButton
          selected={selected}
          onClick={() => onSelect(page)}
          sx={{ py: 0.5, borderRadius: 1, gap: 1, flexWrap: 'wrap' }}
        >
          <Typography
            variant="body2"
            sx={{ fontWeight: page.isMaster ? 600 : 500, color: page.hidePage ? 'text.secondary' : undefined }}
          >
            {label}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
            {page.id}
          </Typography>
          {page.hidePage && <Chip size="small" variant="outlined" label="Hidden" />}
          {draft && <Chip size="small" variant="outlined" label="Draft" />}
          {page.deactived && <Chip size="small" variant="outlined" label="Deactivated" />}
        </ListItemButton>
        {markOf?.(page)}
      </Box>
      {open && (
        <Box component="ul" role="group" sx={{ m: 0, p: 0 }}>
          {children.map((child) => (
            <Item
              key={child.id}
              page={child}
              depth={depth + 1}
              collapsed={collapsed}
              onToggle={onToggle}
              selectedId={selectedId}
              onSelect={onSelect}
              markOf={markOf}
            />
          ))}
        </Box>
      )}
    </Box>
  );
}
