/**
 * The sitemap as a tree (spec 2 §2 "Page selector popover") on ui/Tree (tree semantics,
 * expand / collapse, keyboard). Titles (the id when the title is empty) with a tooltip; a page in an error state shows its message; an inactive page
 * is greyed. Hidden pages are filtered out; the root and its first two levels start expanded.
 */
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import type { SitemapPage } from '../../api/sitemap';
import { Tree } from '../../ui/Tree';
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
  const [expandedAtStart] = useState<ReadonlySet<string>>(() => new Set(defaultExpandedIds(visibleRoot)));
  return (
    <Tree
      root={visibleRoot}
      label={label}
      idOf={(page) => page.id}
      childrenOf={childrenOf}
      nameOf={pageLabel}
      startsOpen={(page) => expandedAtStart.has(page.id)}
      selectedId={selectedId ?? null}
      onSelect={onSelect}
      // Named by its own title, not by its content (which holds its open children's titles too).
      namedByTitle
      tooltipOf={(page) => pageError(page) ?? pageLabel(page)}
      attributesOf={(page) => {
        const error = pageError(page);
        return {
          'aria-invalid': error ? true : undefined,
          'data-error': error ?? undefined,
          'data-page-id': page.id,
          'data-inactive': isInactivePage(page) ? 'true' : undefined,
        };
      }}
      rowSx={(page) => ({
        py: 0.25,
        borderRadius: 1,
        color: isInactivePage(page) ? 'text.disabled' : pageError(page) ? 'error.main' : undefined,
      })}
      renderLabel={(page, titleId) => (
        <>
          <Typography
            id={titleId}
            variant="body2"
            noWrap
            sx={{ fontStyle: isInactivePage(page) ? 'italic' : undefined }}
          >
            {pageLabel(page)}
          </Typography>
          {pageError(page) && <ErrorIcon fontSize="small" color="error" sx={{ ml: 1 }} aria-hidden />}
        </>
      )}
    />
  );
}
