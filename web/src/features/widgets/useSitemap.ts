/** The sitemap of the caller's workspace (refreshed with the workspace: the key is under it). */
import { useQuery } from '@tanstack/react-query';
import type { Id } from '../../api/portal';
import { sitemapApi, sitemapKeys } from '../../api/sitemap';

export function useSitemap(domainId: Id, portalId: Id, enabled = true) {
  return useQuery({
    queryKey: sitemapKeys.sitemap(domainId, portalId),
    queryFn: () => sitemapApi.get(domainId, portalId),
    enabled,
  });
}
