/**
 * Portal search (spec 3 §7 GET /portal/{d}/{p}/search?phrase; docs/api.md "Search"): page
 * titles, page text, widget data and translations of the caller's workspace.
 */
import { api } from '../../api/client';
import { portalKeys, type Id } from '../../api/portal';

export type SearchHitType = 'page' | 'widget' | 'translation' | 'file';

export interface SearchHit {
  type: SearchHitType;
  /** A page hit's page; a widget hit's page that shows the widget. */
  pageId?: string;
  widgetId?: string;
  /** A translation key, or a widget member's dotted path. */
  key?: string;
  language?: string;
  /** Page title, widget id, translation key or file name. */
  title: string;
  /** The workspace file, e.g. 'pages/home.html' (no leading slash). */
  path: string;
  /** The text around the phrase (≤ 120 characters). */
  snippet: string;
  /** The snippet cut to 43 characters. */
  label: string;
  line?: number;
}

export interface SearchResult {
  phrase: string;
  results: SearchHit[];
  truncated: boolean;
}

const seg = (v: Id) => encodeURIComponent(String(v));

export const searchApi = {
  search: (d: Id, p: Id, phrase: string) =>
    api.get<SearchResult>(`portal/${seg(d)}/${seg(p)}/search`, { query: { phrase } }),
};

export const searchKeys = {
  /** Workspace-derived (under portalKeys.workspace): a workspace refresh drops old answers. */
  search: (d: Id, p: Id, phrase: string) => [...portalKeys.workspace(d, p), 'search', phrase] as const,
};
