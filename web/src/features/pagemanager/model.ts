/**
 * The Page Manager's pure helpers: the page rules the server applies (spec 2 §5 "Pages";
 * internal/page/tree.go), the id derived from a title, and the tree questions (where a page
 * is, which parents it may move under).
 */
import { MASTER_PAGE_ID, type AddPageRequest, type UpdatePageRequest } from '../../api/pages';
import type { SitemapPage } from '../../api/sitemap';
import type { PageFormValues } from './PageDialog';
import { validatePageName } from '../widgets';

export const MAX_ID_LENGTH = 64;
export const MAX_TITLE_LENGTH = 120;

export const PAGE_MANAGER_MESSAGES = {
  title: 'Page Manager',
  notAvailable:
    'The Page Manager is not available for limited or captive portals. Their pages are edited in the File Explorer.',
  id: 'A page id may hold only lower-case letters (a-z), digits, dashes and underscores, must not start with a dash and is at most 64 characters long: it names the page\u2019s file pages/<id>.html.',
  reservedId: (id: string) => `The page id ${id} is reserved.`,
  idExists: (id: string) => `A page with the id '${id}' exists already. Choose another id.`,
  titleTooLong: 'The page title is longer than 120 characters.',
  url: "The page url must be a path inside the portal starting with '/', such as /pages/<id>.html.",
  parameterName:
    'A page parameter name may hold only letters, digits, underscores and dashes, must start with a letter or an underscore and is at most 64 characters long.',
  parameterTwice: (name: string) => `The page parameter '${name}' is listed twice.`,
  noPages: 'This portal has no pages yet. Add the first one with Add page.',
  deleteTitle: 'Delete page',
  deleteText: (title: string) => `Delete the page '${title}' and its file from your workspace?`,
  added: (title: string) => `Page '${title}' added.`,
  updated: (title: string) => `Page '${title}' saved.`,
  cloned: (title: string) => `Page '${title}' created as a copy.`,
  deleted: (title: string) => `Page '${title}' deleted.`,
  moved: (title: string) => `Page '${title}' moved.`,
} as const;

const ID_RULE = /^[a-z0-9_][a-z0-9_-]{0,63}$/;
const PARAMETER_RULE = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const RESERVED_IDS = new Set([MASTER_PAGE_ID, 'sitemap']);

/** The message of a page id the server would refuse, or null. */
export function pageIdError(id: string, taken: ReadonlySet<string> = new Set()): string | null {
  if (RESERVED_IDS.has(id)) return PAGE_MANAGER_MESSAGES.reservedId(id);
  if (!ID_RULE.test(id)) return PAGE_MANAGER_MESSAGES.id;
  if (taken.has(id)) return PAGE_MANAGER_MESSAGES.idExists(id);
  return null;
}

/** The message of a page title the server would refuse (the spec's page name rule), or null. */
export function pageTitleError(title: string): string | null {
  if ([...title].length > MAX_TITLE_LENGTH) return PAGE_MANAGER_MESSAGES.titleTooLong;
  return validatePageName(title);
}

/** The message of a page url the server would refuse, or null. */
export function pageUrlError(url: string): string | null {
  return url.length > 512 || !url.startsWith('/') || /[\s\\"<>]/.test(url) || url.includes('..')
    ? PAGE_MANAGER_MESSAGES.url
    : null;
}

export const parameterNameError = (name: string): string | null =>
  PARAMETER_RULE.test(name) ? null : PAGE_MANAGER_MESSAGES.parameterName;

/** A page id from a title: lower case, runs of other characters as one dash, at most 64 characters. */
export function idFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^[-]+|[-]+$/g, '')
    .slice(0, MAX_ID_LENGTH)
    .replace(/-+$/, '');
}

/** The default url of a page: /pages/<id>.html. */
export const defaultPageUrl = (id: string) => `/pages/${id}.html`;

const kids = (page: SitemapPage): SitemapPage[] => page.children ?? [];

/** Every page id of the tree (the root's included). */
export function allIds(root: SitemapPage | null | undefined): Set<string> {
  const ids = new Set<string>();
  const walk = (page: SitemapPage) => {
    ids.add(page.id);
    kids(page).forEach(walk);
  };
  if (root) walk(root);
  return ids;
}

export interface Placement {
  page: SitemapPage;
  parent: SitemapPage | null;
  /** Index among the parent's children. */
  index: number;
  /** Number of the parent's children. */
  siblings: number;
}

/** Where the page with `id` is in the tree (the root: no parent), or null. */
export function placementOf(root: SitemapPage | null | undefined, id: string): Placement | null {
  if (!root) return null;
  if (root.id === id) return { page: root, parent: null, index: 0, siblings: 1 };
  const walk = (parent: SitemapPage): Placement | null => {
    const list = kids(parent);
    for (let i = 0; i < list.length; i++) {
      if (list[i].id === id) return { page: list[i], parent, index: i, siblings: list.length };
      const found = walk(list[i]);
      if (found) return found;
    }
    return null;
  };
  return walk(root);
}

export interface ParentOption {
  id: string;
  label: string;
  depth: number;
}

/**
 * The pages a page may go under (the master page first, then the tree in order, indented),
 * leaving out `excludeId` and its sub-pages (a page cannot move under itself).
 */
export function parentOptions(root: SitemapPage | null | undefined, excludeId?: string): ParentOption[] {
  if (!root) return [{ id: MASTER_PAGE_ID, label: 'Master Page', depth: 0 }];
  const out: ParentOption[] = [{ id: root.id, label: root.title || 'Master Page', depth: 0 }];
  const walk = (page: SitemapPage, depth: number) => {
    if (page.id === excludeId) return;
    out.push({ id: page.id, label: page.title || page.id, depth });
    kids(page).forEach((child) => walk(child, depth + 1));
  };
  kids(root).forEach((child) => walk(child, 1));
  return out;
}

// ---------------------------------------------------------------------------
// The screen: request bodies, moves, the details panel

/** A page's name in messages and the details: its title, else its id. */
export const pageName = (page: Pick<SitemapPage, 'id' | 'title'> | null | undefined): string =>
  page?.title || page?.id || '';

/** The body of Add page (title trimmed) on the sitemap version read. */
export const addPageBody = (v: PageFormValues, sitemapVersion: string): AddPageRequest => ({
  id: v.id,
  title: v.title.trim(),
  url: v.url,
  parameters: v.parameters,
  hidePage: v.hidePage,
  status: v.status,
  parentId: v.parentId,
  sitemapVersion,
});

/** The body of Edit page: the parent only when it changed (a move to the end of the new parent). */
export const updatePageBody = (
  v: PageFormValues,
  pageId: string,
  currentParentId: string,
  sitemapVersion: string,
): UpdatePageRequest => ({
  id: pageId,
  title: v.title.trim(),
  url: v.url,
  parameters: v.parameters,
  hidePage: v.hidePage,
  status: v.status,
  ...(v.parentId !== currentParentId ? { parentId: v.parentId } : {}),
  sitemapVersion,
});

/** The body of a move: under `parentId`, at `position` when given (else at the end). */
export const movePageBody = (
  pageId: string,
  move: { parentId: string; position?: number },
  sitemapVersion: string,
): UpdatePageRequest => ({
  id: pageId,
  parentId: move.parentId,
  ...(move.position === undefined ? {} : { position: move.position }),
  sitemapVersion,
});

/** Whether the selected page can move up or down among its siblings (the master page cannot move). */
export function moveBounds(placement: Placement | null, isMaster: boolean): { up: boolean; down: boolean } {
  return {
    up: !isMaster && !!placement && placement.index > 0,
    down: !isMaster && !!placement && placement.index < placement.siblings - 1,
  };
}

/** The designer or source mode of a page, beside the Page Manager's route. */
export const pageModePath = (pathname: string, id: string, mode: 'designer-mode' | 'source-mode'): string =>
  pathname.replace(/\/page-manager\/?$/, `/pages/${encodeURIComponent(id)}/${mode}`);

const STATUS_LABELS: Record<string, string> = { PUBLISHED: 'Published', DRAFT: 'Draft' };

/** A page's status in words (PUBLISHED when it has none). */
export const pageStatusLabel = (status: string | undefined): string | undefined =>
  STATUS_LABELS[status || 'PUBLISHED'] ?? status;
