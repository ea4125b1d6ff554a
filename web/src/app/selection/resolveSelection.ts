/**
 * The whole portal half of the selection chain for one URL (spec 1 §4.2): the portal, branch
 * and language stages (portalChain.ts), then the sitemap stage (sitemapStage.ts), then the
 * pages-route rules (pageRoute.ts). PortalChainHost runs it for every portal route, one URL at
 * a time.
 */
import type { QueryClient } from '@tanstack/react-query';
import { applyPageRoute } from '../../core/pageRoute';
import { runPortalChain, type ChainOptions, type PortalRoute } from '../../core/portalChain';
import { usePortalErrorStore } from '../../core/portalError';
import { useSelectionStore } from '../../core/selectionStore';
import { runSitemapStage } from './sitemapStage';

export interface SelectionOptions extends ChainOptions {
  queryClient: QueryClient;
  /** The URL's query string (kept when a pages route is corrected). */
  search?: string;
}

export async function resolveSelection(route: PortalRoute, options: SelectionOptions): Promise<void> {
  await runPortalChain(route, options);
  const opened = () => {
    const { portal } = useSelectionStore.getState();
    return !usePortalErrorStore.getState().error && !!portal && String(portal.id) === route.portalId;
  };
  if (!opened()) return;
  await runSitemapStage({ queryClient: options.queryClient, href: options.href });
  if (!opened()) return;
  applyPageRoute(route.rest, { replaceUrl: options.replaceUrl, search: options.search });
}
