/**
 * The sitemap stage of the selection chain (spec 1 §4.2 "sitemap: Loading Sitemap", §4.6, §8):
 * after the language, a PORTAL_ENGINE portal (not limited, not universal) loads the sitemap of
 * the user's workspace behind the 'Loading Sitemap' overlay and keeps it in the selection store,
 * as the synthetic 'master-page' root whose children are the pages.
 *
 * The load goes through the query cache under the same key as features/widgets/useSitemap
 * (sitemapKeys.sitemap, under the workspace key), so every page selector shares it and a
 * workspace refresh (Reload Now, Revert, Reset, a branch switch) reloads it.
 *
 * A failure with status 500–599 closes the portal and raises SITEMAP_LOADING_FAILED (Retry or
 * Cancel) with domain, portal, branch and language; any other failure shows a danger toast with
 * the server's title and message (fallback 'Failed to retrieve SiteMap.') and the portal stays open.
 */
import type { QueryClient } from '@tanstack/react-query';
import { toApiError } from '../../api/errors';
import { sitemapApi, sitemapKeys, type SitemapPage } from '../../api/sitemap';
import { hasPermission } from '../../core/permissions';
import { useSessionStore } from '../../core/sessionStore';
import { overlay } from '../../core/overlayStore';
import { errorToastTitle, HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { usesSitemap } from '../../core/pageRoute';
import { CHAIN_MESSAGES, emitPortalEvent } from '../../core/portalChain';
import { raisePortalError } from '../../core/portalError';
import { closePortal, setSitemap, useSelectionStore, type SelectionState } from '../../core/selectionStore';

export const MASTER_PAGE_ID = 'master-page';
export const MASTER_PAGE_TITLE = 'Master Page';

/** Whether the signed-in user reads pages in the selection's domain (admins read everything). */
export const mayReadPages = (permissions: readonly string[]): boolean =>
  hasPermission({ isAdmin: !!useSessionStore.getState().user?.admin, permissions }, 'page_read');

/** What a loaded sitemap belongs to: domain, portal, branch and language of the selection. */
export function sitemapFor(state: Pick<SelectionState, 'domain' | 'portal' | 'branch' | 'language'>): string | null {
  const { domain, portal, branch, language } = state;
  if (!domain || !portal || !branch || !language) return null;
  return [domain.id, portal.id, branch, language].map(String).join('\u0000');
}

/**
 * The sitemap with its synthetic root (spec 1 §4.6): the server already answers the
 * 'master-page' root; a bare list of pages (or another root) is wrapped in one.
 */
export function withMasterRoot(answer: SitemapPage | SitemapPage[] | null | undefined): SitemapPage {
  if (answer && !Array.isArray(answer) && answer.id === MASTER_PAGE_ID) return answer;
  let children: SitemapPage[] = [];
  if (Array.isArray(answer)) children = answer;
  else if (answer && !answer.id) children = answer.children ?? [];
  else if (answer) children = [answer];
  return { id: MASTER_PAGE_ID, title: MASTER_PAGE_TITLE, url: '/index.html', isMaster: true, children };
}

export type SitemapStageResult = 'loaded' | 'skipped' | 'failed';

export interface SitemapStageOptions {
  queryClient: QueryClient;
  /** The URL being resolved (Retry goes there again). */
  href: string;
  /** Load even when the selection already holds the sitemap for this branch and language. */
  force?: boolean;
}

const isServerError = (status: number) => status >= 500 && status <= 599;

/** Runs the sitemap stage for the current selection (a no-op when it is loaded or not needed). */
export async function runSitemapStage({ queryClient, href, force }: SitemapStageOptions): Promise<SitemapStageResult> {
  const state = useSelectionStore.getState();
  const key = sitemapFor(state);
  if (!key || !state.domain || !state.portal || !usesSitemap(state.portal)) return 'skipped';
  // Pages are read with page_read (spec 2 §6: Select Page needs it): without it there is no
  // sitemap to load, and no error to raise over the screen the user came for.
  if (!mayReadPages(state.permissions)) return 'skipped';
  if (!force && state.sitemapFor === key) return 'skipped';
  const d = state.domain.id;
  const p = state.portal.id;
  emitPortalEvent('sitemapLoading');
  overlay.show(CHAIN_MESSAGES.loadingSitemap);
  try {
    const answer = await queryClient.fetchQuery({
      queryKey: sitemapKeys.sitemap(d, p),
      queryFn: () => sitemapApi.get(d, p),
      staleTime: 0,
    });
    // The selection moved on while the sitemap loaded (another portal, branch or language).
    if (sitemapFor(useSelectionStore.getState()) !== key) return 'skipped';
    setSitemap(withMasterRoot(answer), key);
    emitPortalEvent('sitemapLoaded');
    return 'loaded';
  } catch (cause) {
    const error = toApiError(cause);
    emitPortalEvent('sitemapFailed');
    if (sitemapFor(useSelectionStore.getState()) !== key) return 'failed';
    if (isServerError(error.httpStatus)) {
      closePortal();
      raisePortalError({
        type: 'SITEMAP_LOADING_FAILED',
        title: CHAIN_MESSAGES.sitemapFailed,
        message: error.serverMessage ?? CHAIN_MESSAGES.sitemapFailed,
        href,
        error,
        domainId: String(d),
        portalId: String(p),
        branch: state.branch,
        language: state.language,
      });
    } else {
      // Remembered as tried, so moving between screens does not repeat the toast.
      setSitemap(null, key);
      toasts.danger(
        error.serverMessage ?? CHAIN_MESSAGES.sitemapFailedToast,
        errorToastTitle(cause, CHAIN_MESSAGES.sitemapFailedToast),
        { timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS, closeButton: true },
      );
    }
    return 'failed';
  } finally {
    overlay.hide();
  }
}

/**
 * Keeps the selection's sitemap in step with the query cache: a newer answer (a page
 * selector's refetch, a workspace refresh) replaces it, and a refresh that dropped or
 * invalidated the query loads it again in the background. Returns the unsubscribe function.
 */
export function followSitemapQuery(queryClient: QueryClient): () => void {
  const cache = queryClient.getQueryCache();
  return cache.subscribe((event) => {
    const state = useSelectionStore.getState();
    const key = sitemapFor(state);
    if (!key || !state.domain || !state.portal || state.sitemapFor !== key || !usesSitemap(state.portal)) return;
    const d = state.domain.id;
    const p = state.portal.id;
    const queryKey = sitemapKeys.sitemap(d, p);
    if (JSON.stringify(event.query.queryKey) !== JSON.stringify(queryKey)) return;
    if (event.type === 'updated' && event.action.type === 'success') {
      const data = event.query.state.data as SitemapPage | undefined;
      if (data) setSitemap(withMasterRoot(data), key);
    } else if (event.type === 'removed' || (event.type === 'updated' && event.action.type === 'invalidate')) {
      // Deferred: the cache is still dispatching this event.
      queueMicrotask(() => {
        void queryClient.prefetchQuery({ queryKey, queryFn: () => sitemapApi.get(d, p) });
      });
    }
  });
}
