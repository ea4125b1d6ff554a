import Alert from '@mui/material/Alert';
import { useLocation, useNavigate } from 'react-router';
import type { SitemapPage } from '../../api/sitemap';
import { PageTree, useSitemap } from '../../features/widgets';
import { Loading } from '../../ui/Loading';
import { PickerPopover } from '../../ui/PickerPopover';
import type { SelectorPickerProps } from '../../core/registry';
import { pagePathFor } from '../../core/pageRoute';
import { parsePortalRoute } from '../../core/portalChain';
import { useSelectionStore } from '../../core/selectionStore';
import { CHAIN_MESSAGES } from '../../core/portalChain';
import { withMasterRoot } from '../selection/sitemapStage';

export const SELECT_PAGE_LABEL = 'Select Page';

/**
 * Select Page (spec 1 §2.3, spec 2 §2 "Page selector popover"): the sitemap of the selection
 * (loaded by the chain's sitemap stage) as a tree. Choosing a page navigates to its pages route,
 * keeping the current mode (designer-mode when the screen is not a page); the route's rules then
 * make it the current page (core/pageRoute.ts), so a refused navigation (unsaved
 * changes) changes nothing.
 */
export default function PagePicker({ anchorEl, onClose }: SelectorPickerProps) {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const page = useSelectionStore((s) => s.page);
  const loaded = useSelectionStore((s) => s.sitemap);
  const navigate = useNavigate();
  const location = useLocation();
  // The selection holds the sitemap of PORTAL_ENGINE portals; other engines read it on demand (same query).
  const fallback = useSitemap(domain?.id ?? '', portal?.id ?? '', !loaded && !!domain && !!portal);
  const root = loaded ?? (fallback.data ? withMasterRoot(fallback.data) : null);

  const choose = (chosen: SitemapPage) => {
    onClose();
    const rest = parsePortalRoute(location.pathname)?.rest;
    const path = pagePathFor(chosen.id, rest);
    if (path) void navigate(path);
  };

  return (
    <PickerPopover
      anchorEl={anchorEl}
      onClose={onClose}
      label={SELECT_PAGE_LABEL}
      paperSx={{ width: 320, maxHeight: 560, p: 1 }}
    >
      {root ? (
        <PageTree root={root} label="Pages" selectedId={page?.id ?? null} onSelect={choose} />
      ) : fallback.isError ? (
        <Alert severity="error">{CHAIN_MESSAGES.sitemapFailed}</Alert>
      ) : (
        <Loading label={CHAIN_MESSAGES.loadingSitemap} />
      )}
    </PickerPopover>
  );
}
