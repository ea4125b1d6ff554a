/**
 * The sitemap of a portal's workspace (spec 2 §3 "Sitemap page", §7 "Pages"; i11 contract
 * "Sitemap"): GET page/{domainId}/{portalId}/sitemap answers a synthetic root ('master-page')
 * whose children are the portal's pages. Read from the caller's workspace, so its key is under
 * portalKeys.workspace: reloads, reverts and branch switches refresh it.
 */
import { api } from './client';
import { portalKeys, type Id } from './portal';

/** A URL parameter a page needs (spec 2 §3 "Missing page parameter"). */
export interface PageParameter {
  name: string;
  description?: string;
  required?: boolean;
  value?: string;
}

/** A page of the sitemap; the root is the master page (isMaster). */
export interface SitemapPage {
  id: string;
  title?: string;
  url?: string;
  pageUrl?: string;
  baseUrl?: string;
  isMaster?: boolean;
  parameters?: PageParameter[] | null;
  parameterString?: string;
  defaultUrlParams?: string;
  /** Hidden pages are left out of the page selector (still linkable). */
  hidePage?: boolean;
  /** A deactivated root page (the wire name is spelled so). */
  deactived?: boolean;
  status?: string;
  errorMessage?: string;
  pseudoPageId?: string;
  pageLocation?: string;
  children?: SitemapPage[] | null;
}

/** The error message of a failed sitemap load (spec 2 §8). */
export const SITEMAP_LOAD_FAILED = 'Failed to retrieve Sitemap.';

const seg = (v: Id) => encodeURIComponent(String(v));

export const sitemapApi = {
  /** The sitemap tree (a root with `children: []` when the workspace has no sitemap.json). */
  get: (d: Id, p: Id) => api.get<SitemapPage>(`page/${seg(d)}/${seg(p)}/sitemap`),
};

export const sitemapKeys = {
  /** Workspace-derived: under portalKeys.workspace(d, p). */
  sitemap: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'sitemap'] as const,
};

/** Alias matching the brief's wording. */
export const getSitemap = sitemapApi.get;
