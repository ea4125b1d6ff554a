/**
 * The Page Manager's sitemap tree on ui/Tree (tree semantics, expand / collapse, keyboard):
 * every page (hidden ones too, marked), its title, id and status; the master page at the root.
 * Every level starts expanded.
 */
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { SitemapPage } from '../../api/sitemap';
import { Tree } from '../../ui/Tree';

export interface SitemapTreeProps {
  root: SitemapPage;
  selectedId: string | null;
  onSelect: (page: SitemapPage) => void;
  /** A mark after a page (other users changing its file). */
  markOf?: (page: SitemapPage) => ReactNode;
}

const labelOf = (page: SitemapPage) => page.title?.trim() || page.id;

export function SitemapTree({ root, selectedId, onSelect, markOf }: SitemapTreeProps) {
  return (
    <Tree
      root={root}
      label="Sitemap"
      idOf={(page) => page.id}
      childrenOf={(page) => page.children ?? []}
      nameOf={labelOf}
      startsOpen={() => true}
      selectedId={selectedId}
      onSelect={onSelect}
      indent={3}
      attributesOf={(page) => ({
        'data-page-id': page.id,
        'data-hidden': page.hidePage ? 'true' : undefined,
        'data-status': page.status || undefined,
      })}
      rowSx={() => ({ py: 0.5, borderRadius: 1, gap: 1, flexWrap: 'wrap' })}
      renderAfter={markOf}
      renderLabel={(page) => (
        <>
          <Typography
            variant="body2"
            sx={{ fontWeight: page.isMaster ? 600 : 500, color: page.hidePage ? 'text.secondary' : undefined }}
          >
            {labelOf(page)}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
            {page.id}
          </Typography>
          {page.hidePage && <Chip size="small" variant="outlined" label="Hidden" />}
          {(page.status ?? '').toUpperCase() === 'DRAFT' && <Chip size="small" variant="outlined" label="Draft" />}
          {page.deactived && <Chip size="small" variant="outlined" label="Deactivated" />}
        </>
      )}
    />
  );
}
