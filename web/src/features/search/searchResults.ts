/**
 * The header search's rules (spec 2 §2 "Page designer and sitemap", §6, §8, §9; spec 3 §2):
 * messages, constants, visibility and where a result leads.
 */
import { isCaptivePortal, isLimitedPortal, isUniversalPortal, type NavPortal } from '../../core/menus';
import { paths } from '../../core/paths';
import { pageRoutePath } from '../../core/pageRoute';
import type { SearchHit } from './searchApi';

export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_BOX_WIDTH = 480;
/** The box on screens narrower than 1536 px (lg: from 1200 px; md: from 900 px). */
export const SEARCH_BOX_WIDTH_LG = 280;
export const SEARCH_BOX_WIDTH_MD = 240;
export const SEARCH_LABEL_MAX = 43;

export const SEARCH_MESSAGES = {
  empty: 'Please type something in the search box to search in the selected portal.',
  none: 'No Items found',
  searching: 'Searching…',
  failedTitle: 'Failed to search',
  failed: (phrase: string) => `Failed to search '${phrase}'`,
  /** The accessible name of the box and of its listbox. */
  label: 'Search in portal',
  results: 'Search results',
  truncated: 'More items were found: refine the search.',
} as const;

/** A text cut to at most `max` characters ('…' as the last one where cut). */
export function cutLabel(text: string, max = SEARCH_LABEL_MAX): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** The dropdown label of a hit: the server's label (or snippet, or title), at most 43 characters. */
export const hitLabel = (hit: SearchHit): string => cutLabel(hit.label || hit.snippet || hit.title || hit.path);

/** The full text behind a hit's label (its tooltip). */
export const hitFullText = (hit: SearchHit): string => hit.snippet || hit.label || hit.title || hit.path;

const TYPE_NAMES: Record<string, string> = {
  page: 'Page',
  widget: 'Widget',
  translation: 'Translation',
  file: 'File',
};

/** 'Page · Home', 'Page text · Home', 'Widget · hero-1', 'Translation · fr_FR · home.title', 'File · old.html'. */
export function hitSource(hit: SearchHit): string {
  // A page's title (found in sitemap.json) or its text.
  const type = hit.type === 'page' && hit.path !== 'sitemap.json' ? 'Page text' : (TYPE_NAMES[hit.type] ?? hit.type);
  const parts = [type];
  if (hit.type === 'translation' && hit.language) parts.push(hit.language);
  parts.push(hit.title || hit.path);
  return parts.join(' · ');
}

/** The search box: a portal that is neither limited nor universal, and page read permission. */
export function isSearchVisible(portal: NavPortal | null, canReadPages: boolean): boolean {
  return !!portal && !isLimitedPortal(portal) && !isUniversalPortal(portal) && canReadPages;
}

export interface HitContext {
  domainId: string | number;
  portal: NavPortal;
  branch: string;
  language: string;
  /** translation:r (the Translation Manager opens translation hits). */
  canReadTranslations: boolean;
  /** asset:r and code:r (the File Explorer and its source editor); true when not given. */
  canReadFiles?: boolean;
}

const folderOf = (path: string) => {
  const parts = path.split('/').filter(Boolean);
  parts.pop();
  return `/${parts.join('/')}`;
};

/**
 * Where a result leads (spec 2 §2 "Search results open the portal page in designer mode, or open
 * the file explorer at the page location"):
 * - a page (its title or its text): the page in designer mode;
 * - a translation: the Translation Manager, where the Translation Manager is offered (translation
 *   read, not captive); otherwise like a file;
 * - a widget or any other file: the File Explorer at the file's folder, with the file open in
 *   the source editor (a widget opens the page that shows it in designer mode for a user
 *   without asset:r or code:r).
 */
export function hitTarget(hit: SearchHit, ctx: HitContext): string {
  const { domainId, portal, branch, language } = ctx;
  if (hit.type === 'page' && hit.pageId)
    return pageRoutePath(domainId, portal.id, branch, language, hit.pageId, 'designer-mode');
  if (hit.type === 'translation' && ctx.canReadTranslations && !isCaptivePortal(portal))
    return paths.portalScreen(domainId, portal.id, branch, language, 'translations');
  // Without the File Explorer, a widget opens the page that shows it.
  if (ctx.canReadFiles === false && hit.pageId)
    return pageRoutePath(domainId, portal.id, branch, language, hit.pageId, 'designer-mode');
  const file = `/${hit.path.replace(/^\/+/, '')}`;
  const explorer = paths.fileExplorer(domainId, portal.id, branch, language, folderOf(file));
  if (hit.path === 'sitemap.json' || !/\.(json|html?)$/i.test(file)) return explorer;
  // The source editor: it shows any JSON or HTML file (the JSON editor needs a schema, which
  // widget data and translation files do not have).
  return `${explorer}${explorer.includes('?') ? '&' : '?'}edit=${encodeURIComponent(file)}&mode=source`;
}
