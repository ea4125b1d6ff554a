/** The readiness queries besides the shared workspace one (useReadiness.ts), and Open's context. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Id } from '../../api/portal';
import { readinessApi, readinessKeys, type OthersReadiness, type ReadinessReport } from '../../api/readiness';
import { sitemapApi, sitemapKeys } from '../../api/sitemap';
import { isCaptivePortal, isLimitedPortal, isUniversalPortal } from '../../core/menus';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import { pageFiles, type LinkContext } from './model';

const ready = (d: Id | undefined, p: Id | undefined) => d !== undefined && p !== undefined && d !== '' && p !== '';

/** Other authors' findings in their uncommitted changes (kept live by READINESS_CHANGED). */
export function useOthersReadiness(d: Id | undefined, p: Id | undefined, enabled = true) {
  return useQuery<OthersReadiness[]>({
    queryKey: readinessKeys.others(d ?? '', p ?? ''),
    queryFn: () => readinessApi.others(d!, p!),
    enabled: enabled && ready(d, p),
    staleTime: 30_000,
    retry: false,
  });
}

/** The readiness settings (the gate and the budgets). */
export function useReadinessSettings(d: Id | undefined, p: Id | undefined, enabled = true) {
  return useQuery({
    queryKey: readinessKeys.settings(d ?? '', p ?? ''),
    queryFn: () => readinessApi.settings(d!, p!),
    enabled: enabled && ready(d, p),
    retry: false,
  });
}

/** One commit's report (never changes: cached for the session). */
export function useCommitReadiness(d: Id | undefined, p: Id | undefined, commitId: string | null | undefined) {
  return useQuery<ReadinessReport>({
    queryKey: readinessKeys.commit(d ?? '', p ?? '', commitId ?? ''),
    queryFn: () => readinessApi.commit(d!, p!, commitId!),
    enabled: ready(d, p) && !!commitId,
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * Where Open may land for this portal and user: pages in source mode on full portal engine
 * portals (with page_read), keys in the Translation Manager where it is shown (translation:r);
 * the page files' ids come from the sitemap.
 */
export function useLinkContext(d: string, p: string, branch: string, language: string): LinkContext {
  const portal = useSelectionStore((s) => s.portal);
  const plain = isLimitedPortal(portal) || isCaptivePortal(portal);
  const canPages = usePermission('page_read');
  const canTranslations = usePermission('translation:r');
  const canWhitelist = usePermission('whitelist:r');
  const pageEditor = !plain && !isUniversalPortal(portal) && canPages;
  const sitemap = useQuery({
    queryKey: sitemapKeys.sitemap(d, p),
    queryFn: () => sitemapApi.get(d, p),
    enabled: pageEditor && ready(d, p),
    retry: false,
  });
  return useMemo(
    () => ({
      domain: d,
      portal: p,
      branch,
      language,
      pages: pageFiles(sitemap.data),
      pageEditor,
      translationManager: !plain && !isUniversalPortal(portal) && canTranslations,
      // The Whitelist entry's rule (core/menus.ts).
      whitelistScreen: !plain && !isUniversalPortal(portal) && canWhitelist,
    }),
    [d, p, branch, language, sitemap.data, pageEditor, plain, portal, canTranslations, canWhitelist],
  );
}
