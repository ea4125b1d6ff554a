/**
 * The pages API and the batch save (spec 2 §3 "Sitemap page / Page", "Batch save item", §7
 * "Pages"; docs/api.md "Pages", "Batch save"). Every call works on the caller's workspace: a
 * change sends the versions it read (`sitemapVersion` for sitemap.json, `version` for
 * pages/<id>.html, "" for a file that does not exist); a stale one is refused with 409
 * FILE_CHANGED and nothing is written.
 */
import { api, requestWithResponse, versionFromETag } from './client';
import type { ErrorObject } from './types';
import { portalKeys, type Id } from './portal';
import { sitemapKeys, type SitemapPage } from './sitemap';
import type * as gen from './types.gen';
import type { Narrow } from './types';

/** The synthetic root of the sitemap: the master page (index.html). */
export const MASTER_PAGE_ID = 'master-page';

/** Page statuses the server accepts (the engine shows DRAFT pages in design mode only). */
export const PAGE_STATUSES = ['PUBLISHED', 'DRAFT'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

/** The page error titles (spec 2 §8). */
export const PAGE_ERRORS = {
  remove: 'Failed to remove page.',
  retrieve: 'Failed to retrieve page.',
  update: 'Failed to update page.',
  add: 'Failed to add a new page.',
  clone: 'Failed to clone page.',
} as const;

/** A page answer: its sitemap fields, its place in the tree, its HTML and the versions to base a change on. */
export interface Page extends SitemapPage {
  html: string;
  /** 'master-page' for a root page; '' for the master page itself. */
  parentId: string;
  /** The index among the parent's children. */
  position: number;
  /** The file: pages/<id>.html, or index.html for the master page. */
  path: string;
  /** The file's version ('' when it does not exist yet). */
  version: string;
  sitemapVersion: string;
}

/** The sitemap with the version of sitemap.json (the ETag of GET …/sitemap; '' when the file is missing). */
export interface VersionedSitemap {
  root: SitemapPage;
  sitemapVersion: string;
}

export type AddPageRequest = gen.PageAddRequest;

export type UpdatePageRequest = gen.PageUpdateRequest;

export type ClonePageRequest = gen.PageCloneRequest;

export type DeletedPage = gen.PageDeleted;

/** One item of a batch save (spec 2 §3): a page's HTML or a widget's data, with the version the edit started from. */
export type BatchItem = Narrow<gen.PageBatchItem, { type: 'page' | 'widget' }>;

/** A batch item's answer: its new version, or its error. */
export type BatchResult = Narrow<gen.PageBatchResult, { error?: Partial<ErrorObject> }>;

/** The error code of a batch item (or a page call) whose version is stale. */
export const FILE_CHANGED_CODE = 'FILE_CHANGED';

/** Whether a batch item failed because its file changed since it was read. */
export const isStaleItem = (result: BatchResult): boolean =>
  !!result.error &&
  (String(result.error.errorCode) === FILE_CHANGED_CODE || result.error.errorCodeDesc === FILE_CHANGED_CODE);

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `page/${seg(d)}/${seg(p)}`;

export const pagesApi = {
  /** The sitemap with sitemap.json's version (the base of every page-manager change). */
  sitemap: async (d: Id, p: Id): Promise<VersionedSitemap> => {
    const { data, headers } = await requestWithResponse<SitemapPage>(`${base(d, p)}/sitemap`, { cache: 'no-store' });
    return { root: data, sitemapVersion: versionFromETag(headers.get('ETag')) ?? '' };
  },
  /** A page with its HTML and versions; 'master-page' is index.html. */
  get: (d: Id, p: Id, page: string) => api.get<Page>(`${base(d, p)}/${seg(page)}`, { cache: 'no-store' }),
  add: (d: Id, p: Id, body: AddPageRequest) => api.post<Page>(base(d, p), body),
  update: (d: Id, p: Id, body: UpdatePageRequest) => api.put<Page>(base(d, p), body),
  remove: (d: Id, p: Id, page: string, sitemapVersion: string, version?: string) =>
    api.delete<DeletedPage>(`${base(d, p)}/${seg(page)}`, { query: { sitemapVersion, version } }),
  clone: (d: Id, p: Id, from: string, body: ClonePageRequest) =>
    api.post<Page>(`${base(d, p)}/clone/${seg(from)}`, body),
  /** The designer's batch save: each item written whole or not at all, answered in order. */
  batch: (d: Id, p: Id, items: BatchItem[]) => api.post<BatchResult[]>(`portal/${seg(d)}/${seg(p)}/batch`, items),
};

export const pageKeys = {
  /** Under the sitemap's key: refreshing the sitemap refreshes it too. */
  versionedSitemap: (d: Id, p: Id) => [...sitemapKeys.sitemap(d, p), 'versioned'] as const,
  /** A page with its HTML (workspace-derived). */
  page: (d: Id, p: Id, page: string) => [...portalKeys.workspace(d, p), 'page', page] as const,
};
