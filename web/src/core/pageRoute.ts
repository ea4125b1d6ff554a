/**
 * The pages routes of the portal area (spec 1 §2.1, spec 2 §2 "Routes"):
 * …/branch/{branch}/{language}/pages/{pageId}/{mode}, mode designer-mode or source-mode.
 *
 * - A page route counts as valid only when its page is the current page. A route naming another
 *   page of the sitemap makes it the current page; a page the sitemap does not have sends the
 *   user to the designer-mode route of the current page (or, with none, to the portal
 *   dashboard), with a danger toast.
 * - A pages route without a known mode goes to designer mode.
 * - Limited portals have no designer: a pages route goes to the File Explorer. Universal portals
 *   edit their content through the JSON editor: a pages route goes to the File Explorer at
 *   content/.
 * - Switching language keeps page and mode, picking another page keeps the mode, switching
 *   branch rewrites only the branch segment (the pickers keep the route's rest).
 */
import { isLimitedPortal, isUniversalPortal } from './menus';
import { paths } from './paths';
import { toasts } from './toastService';
import { setSelectedPage, useSelectionStore, type SelectedPortal } from './selectionStore';

/** Whether a portal has a sitemap in the selection: PORTAL_ENGINE, not limited, not universal. */
export const usesSitemap = (portal: SelectedPortal | null): boolean =>
  !!portal && !isLimitedPortal(portal) && !isUniversalPortal(portal) && portal.engineType === 'PORTAL_ENGINE';

export const PAGE_MODES = ['designer-mode', 'source-mode'] as const;
export type PageMode = (typeof PAGE_MODES)[number];
export const DEFAULT_PAGE_MODE: PageMode = 'designer-mode';
/** Where a universal portal's content is edited (the JSON editor of the File Explorer). */
export const UNIVERSAL_CONTENT_FOLDER = '/content';

export const PAGE_ROUTE_MESSAGES = {
  unknownPage: (id: string) => `Page '${id}' was not found in the sitemap.`,
  unknownPageTitle: 'Failed to retrieve page.',
} as const;

type Id = string | number;

export const isPageMode = (value: string | undefined): value is PageMode =>
  !!value && (PAGE_MODES as readonly string[]).includes(value);

/** The page and mode of a portal route's rest ('pages/{pageId}/{mode}'), or null. */
export function parsePageRest(rest: string): { pageId: string; mode: string | null } | null {
  const parts = rest.split('/');
  if (parts[0] !== 'pages' || !parts[1]) return null;
  let pageId = parts[1];
  try {
    pageId = decodeURIComponent(pageId);
  } catch {
    // Keep the raw segment.
  }
  return { pageId, mode: parts[2] || null };
}

/** The rest of a pages route. */
export const pageRest = (pageId: string, mode: string = DEFAULT_PAGE_MODE) =>
  `pages/${encodeURIComponent(pageId)}/${mode}`;

/** …/branch/{branch}/{language}/pages/{pageId}/{mode}. */
export const pageRoutePath = (
  domainId: Id,
  portalId: Id,
  branch: string,
  language: string,
  pageId: string,
  mode: string = DEFAULT_PAGE_MODE,
) => paths.portalScreen(domainId, portalId, branch, language, pageRest(pageId, mode));

/** The mode of the route when it is a pages route with a known mode, else designer-mode. */
export function modeOfRest(rest: string | undefined): PageMode {
  const page = rest ? parsePageRest(rest) : null;
  return page && isPageMode(page.mode ?? undefined) ? (page.mode as PageMode) : DEFAULT_PAGE_MODE;
}

/** The route of the current selection for a page, keeping the current mode (spec 2 §2). */
export function pagePathFor(pageId: string, currentRest?: string): string | null {
  const { domain, portal, branch, language } = useSelectionStore.getState();
  if (!domain || !portal || !branch || !language) return null;
  return pageRoutePath(domain.id, portal.id, branch, language, pageId, modeOfRest(currentRest));
}

export interface PageRouteOptions {
  /** Replaces the URL (a redirect of an invalid pages route). */
  replaceUrl: (path: string) => void;
  /** The query string of the route (kept on a mode fix). */
  search?: string;
}

export type PageRouteOutcome = 'none' | 'valid' | 'selected' | 'redirected';

/**
 * Applies the pages-route rules to the selection after the chain (and the sitemap stage) ran
 * for `rest`. Returns what it did.
 */
export function applyPageRoute(rest: string, options: PageRouteOptions): PageRouteOutcome {
  const route = parsePageRest(rest);
  if (!route) return 'none';
  const { domain, portal, branch, language, page, sitemap } = useSelectionStore.getState();
  if (!domain || !portal || !branch || !language) return 'none';
  if (isLimitedPortal(portal)) {
    options.replaceUrl(paths.fileExplorer(domain.id, portal.id, branch, language));
    return 'redirected';
  }
  if (isUniversalPortal(portal)) {
    options.replaceUrl(paths.fileExplorer(domain.id, portal.id, branch, language, UNIVERSAL_CONTENT_FOLDER));
    return 'redirected';
  }
  const here = (id: string, mode: string) => pageRoutePath(domain.id, portal.id, branch, language, id, mode);
  const fixMode = () => {
    if (isPageMode(route.mode ?? undefined)) return false;
    options.replaceUrl(`${here(route.pageId, DEFAULT_PAGE_MODE)}${options.search ?? ''}`);
    return true;
  };
  if (page?.id === route.pageId) return fixMode() ? 'redirected' : 'valid';
  // Without a sitemap in the selection (another engine type, a failed load) the route's page is taken as is.
  if (!sitemap || !usesSitemap(portal)) {
    setSelectedPage({ id: route.pageId, title: route.pageId });
    return fixMode() ? 'redirected' : 'selected';
  }
  const found = findInTree(sitemap, route.pageId);
  if (found) {
    setSelectedPage({ id: found.id, title: found.title?.trim() || found.id });
    return fixMode() ? 'redirected' : 'selected';
  }
  toasts.danger(PAGE_ROUTE_MESSAGES.unknownPage(route.pageId), PAGE_ROUTE_MESSAGES.unknownPageTitle);
  options.replaceUrl(
    page ? here(page.id, DEFAULT_PAGE_MODE) : paths.portalScreen(domain.id, portal.id, branch, language, 'dashboard'),
  );
  return 'redirected';
}

interface TreePage {
  id: string;
  title?: string;
  children?: TreePage[] | null;
}

function findInTree(root: TreePage, id: string): TreePage | null {
  if (root.id === id) return root;
  for (const child of root.children ?? []) {
    const found = findInTree(child, id);
    if (found) return found;
  }
  return null;
}
