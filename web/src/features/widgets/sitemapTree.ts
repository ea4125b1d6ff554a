/**
 * Pure helpers over the sitemap tree (spec 2 §2 "Page selector popover", §3 "Sitemap page"):
 * labels, flattening for dropdowns, the hidden/inactive/error states, the default expansion.
 */
import type { PageParameter, SitemapPage } from '../../api/sitemap';

/** How far below the root the selector opens by default: the root and its first two levels. */
export const DEFAULT_EXPANDED_LEVELS = 2;

/** A page's title, or its id when the title is empty. */
export const pageLabel = (page: Pick<SitemapPage, 'id' | 'title'>): string => page.title?.trim() || page.id;

export const childrenOf = (page: SitemapPage): SitemapPage[] => page.children ?? [];

export const parametersOf = (page: SitemapPage | null | undefined): PageParameter[] =>
  (page?.parameters ?? []).filter((p) => !!p?.name);

/** Statuses that mean a page is not active (besides the deactived flag). */
const INACTIVE_STATUSES = new Set(['inactive', 'deactivated', 'deactived', 'disabled']);
/** Statuses that put a page in an error state. */
const ERROR_STATUSES = new Set(['error', 'failed', 'invalid']);

/** A deactivated page, or one whose status is not active: shown greyed. */
export const isInactivePage = (page: SitemapPage): boolean =>
  page.deactived === true || INACTIVE_STATUSES.has((page.status ?? '').trim().toLowerCase());

/** The tooltip of a page in an error state (its errorMessage, else its status), or null. */
export function pageError(page: SitemapPage): string | null {
  const message = page.errorMessage?.trim();
  if (message) return message;
  const status = (page.status ?? '').trim();
  return ERROR_STATUSES.has(status.toLowerCase()) ? status : null;
}

/** The tree without hidden pages (their subtrees too); the root itself is kept. */
export function withoutHidden(root: SitemapPage): SitemapPage {
  return {
    ...root,
    children: childrenOf(root)
      .filter((child) => !child.hidePage)
      .map(withoutHidden),
  };
}

/**
 * The ids of the pages open by default: the root and the pages of its first `levels` levels
 * that have children (so pages down to depth levels+1 are visible).
 */
export function defaultExpandedIds(root: SitemapPage, levels = DEFAULT_EXPANDED_LEVELS): string[] {
  const ids: string[] = [];
  const walk = (page: SitemapPage, depth: number) => {
    if (depth > levels || childrenOf(page).length === 0) return;
    ids.push(page.id);
    for (const child of childrenOf(page)) walk(child, depth + 1);
  };
  walk(root, 0);
  return ids;
}

export interface FlatPage {
  page: SitemapPage;
  /** 0 for the root's children. */
  depth: number;
  /** The page or one of its ancestors is hidden. */
  hidden: boolean;
}

/** The root's pages in tree order with their depth (the root itself, the master page, is left out). */
export function flattenPages(root: SitemapPage | null | undefined): FlatPage[] {
  const rows: FlatPage[] = [];
  const walk = (page: SitemapPage, depth: number, hiddenAbove: boolean) => {
    const hidden = hiddenAbove || page.hidePage === true;
    rows.push({ page, depth, hidden });
    for (const child of childrenOf(page)) walk(child, depth + 1, hidden);
  };
  for (const child of root ? childrenOf(root) : []) walk(child, 0, false);
  return rows;
}

/** The page with `id` anywhere in the tree (the root included), or null. */
export function findPage(root: SitemapPage | null | undefined, id: string): SitemapPage | null {
  if (!root) return null;
  if (root.id === id) return root;
  for (const child of childrenOf(root)) {
    const found = findPage(child, id);
    if (found) return found;
  }
  return null;
}
