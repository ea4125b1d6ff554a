/**
 * Source mode's pure model (spec 2 §2 "Routes", §3 "Batch save item"): the path of the other
 * mode, the page's text and title, the batch item that saves the page and how its answer is
 * read (a new version, a stale version, an item's error), the error shown with the editor, the
 * unbalanced-markup warning before a save and which navigations count as leaving.
 */
import { isFileChanged } from '../../api/client';
import { toApiError } from '../../api/errors';
import { pageKeys, isStaleItem, type BatchItem, type BatchResult, type Page } from '../../api/pages';
import type { ErrorObject } from '../../api/types';
import type { SelectedPage } from '../../core/selectionStore';
import { isWorkspaceQueryKey } from '../../core/workspaceRefresh';
import type { FileBase, FileText } from '../editors';
import { markupProblem, type MarkupProblem } from './markup';
import { SOURCE_MESSAGES as MSG } from './messages';

/** The path of the same page in another mode: the current route with its last segment replaced. */
export function modePath(pathname: string, mode: 'designer-mode' | 'source-mode'): string {
  return pathname.replace(/\/(source-mode|designer-mode)\/?$/, `/${mode}`);
}

/** The page's name as shown: its title, else its id. */
export const pageTitle = (page: Pick<Page, 'id' | 'title'>): string => page.title || page.id;

/** The page's HTML and the version it was read at, as the editor's base. */
export const pageBase = (page: Pick<Page, 'html' | 'version'>): FileBase => ({
  text: page.html ?? '',
  version: page.version ?? '',
});

/** The page's HTML and version as the workspace reload compares them. */
export const pageFileText = (page: Pick<Page, 'html' | 'version'>): FileText => ({
  data: page.html ?? '',
  version: page.version ?? '',
});

/** The selected page after `page` loaded; null when the selection already names it so. */
export function selectedPageUpdate(
  current: SelectedPage | null,
  page: Pick<Page, 'id' | 'title'>,
): SelectedPage | null {
  const next = { id: page.id, title: pageTitle(page) };
  return current?.id !== next.id || current.title !== next.title ? next : null;
}

/** A batch item's failure other than a stale version: shown with the editor. */
export class ItemError extends Error {
  constructor(readonly item: Partial<ErrorObject>) {
    super(item.errorMessage ?? '');
  }
}

/** A batch item refused because the page's file changed (409 FILE_CHANGED). */
export class StaleItem extends Error {}

export type SaveOutcome = 'saved' | 'not-saved';

/** The batch save's body: the page's HTML with the version the edit started from. */
export const pageBatch = (pageId: string, html: string, version: string | null): BatchItem[] => [
  { file: pageId, data: html, type: 'page', version: version ?? '' },
];

/** The new version from the batch's answer; a stale item throws StaleItem, a failed one ItemError. */
export function batchVersion(result: BatchResult | undefined): string {
  if (result && isStaleItem(result)) throw new StaleItem();
  if (!result || result.error) throw new ItemError(result?.error ?? { errorMessage: MSG.noResult });
  return result.version ?? '';
}

/** Whether a failed save means the page changed meanwhile (merge instead of failing). */
export const isPageConflict = (error: unknown): boolean => error instanceof StaleItem || isFileChanged(error);

/** The error shown with the editor after a failed save. */
export function shownFailure(error: unknown): Partial<ErrorObject> {
  return error instanceof ItemError
    ? error.item
    : { errorTitle: MSG.saveFailed, errorMessage: toApiError(error).errorMessage };
}

/**
 * After a save, the queries that follow it: every view of the workspace (the header's local
 * changes…) except the page being edited, which keeps the version it started from.
 */
export function followsSave(domain: string, portal: string, pageId: string) {
  const own = JSON.stringify(pageKeys.page(domain, portal, pageId));
  return (queryKey: readonly unknown[]) =>
    isWorkspaceQueryKey(queryKey, domain, portal) && JSON.stringify(queryKey) !== own;
}

/** A save waiting for the author's answer because the markup does not balance (issue 22 item 5). */
export interface UnbalancedSave {
  problem: MarkupProblem;
  /** The save was asked for by the leave prompt: the navigation goes on once it is saved. */
  leaving: boolean;
}

/** The warning a save of `text` must ask first; null when the markup balances. */
export function unbalancedSave(text: string, leaving: boolean): UnbalancedSave | null {
  const problem = markupProblem(text);
  return problem ? { problem, leaving } : null;
}

interface RouteLocation {
  pathname: string;
  search: string;
}

/** Whether a navigation leaves the page (another path or other parameters) and so needs the prompt. */
export const leavesPage = (current: RouteLocation, next: RouteLocation): boolean =>
  current.pathname !== next.pathname || current.search !== next.search;
