/**
 * Every route path of the app, declared once (spec 1 §2.1). `patterns` are the route table's
 * patterns (relative to the root, as registerRoute takes them); `paths` build the links that
 * navigation, screens and redirects use. Nothing else builds a path from strings.
 */
import { branchFromUrl, branchToUrl } from '../api/portal';

type Id = string | number;

const seg = (value: Id) => encodeURIComponent(String(value));

/** A branch name in a URL segment: '/' becomes ':' (spec 1 §2.1); the API uses the same form. */
export const branchToSegment = branchToUrl;
/** The branch name of a URL segment: ':' becomes '/'. */
export const branchFromSegment = branchFromUrl;

/** A query string of the defined values ('' when none): '?a=1&b=x%2Fy'. */
function query(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The segment that stands for the portal's active branch. */
export const ACTIVE_BRANCH_SEGMENT = '_';
export const DEFAULT_LANGUAGE = 'en_GB';

const DOMAIN = 'domain/:domain';
const PORTAL = `${DOMAIN}/portal/:portal`;
const PORTAL_MODULE = `${PORTAL}/branch/:branch/:language`;

/** Route patterns (no leading slash), as the route table and registerRoute take them. */
export const patterns = {
  confirmPassword: 'confirm-password/:uuid',
  domainDashboard: `${DOMAIN}/dashboard`,
  domainEmail: `${DOMAIN}/email`,
  portalManagement: `${DOMAIN}/portal-management`,
  templateManagement: `${DOMAIN}/template-management`,
  portal: PORTAL,
  portalBranch: `${PORTAL}/branch/:branch`,
  portalModule: PORTAL_MODULE,
  portalDashboard: `${PORTAL_MODULE}/dashboard`,
  portalBranches: `${PORTAL_MODULE}/branches`,
  portalSettings: `${PORTAL_MODULE}/settings`,
  portalFileExplorer: `${PORTAL_MODULE}/file-explorer`,
  portalTranslations: `${PORTAL_MODULE}/translations`,
  pageSource: `${PORTAL_MODULE}/pages/:pageId/source-mode`,
  portalPageDesigner: `${PORTAL_MODULE}/pages/:pageId/designer-mode`,
  pageManager: `${PORTAL_MODULE}/page-manager`,
  /** Resolving the conflicts of the caller's local commits (issue 21). */
  portalConflicts: `${PORTAL_MODULE}/conflicts`,
  /** Release readiness: the findings of the caller's workspace (issue 29). */
  portalReadiness: `${PORTAL_MODULE}/readiness`,
  adminUsers: 'admin/users/:userId',
  adminDomains: 'admin/domains/:domainId',
  adminSearch: 'admin/search',
  adminPreferences: 'admin/preferences',
  adminOutbox: 'admin/outbox',
  adminHistory: 'admin/history',
} as const;

/** Absolute paths (leading slash) for links and navigation. */
export const paths = {
  root: () => '/',
  domain: (domain: Id, child: string) => `/domain/${seg(domain)}/${child}`,
  domainDashboard: (domain: Id) => paths.domain(domain, 'dashboard'),
  domainEmail: (domain: Id) => paths.domain(domain, 'email'),
  portalManagement: (domain: Id) => paths.domain(domain, 'portal-management'),
  templateManagement: (domain: Id) => paths.domain(domain, 'template-management'),
  /** A portal without branch or screen: the selection chain completes it. */
  portal: (domain: Id, portal: Id) => `/domain/${seg(domain)}/portal/${seg(portal)}`,
  /** A portal screen: branch with ':' for '/'. */
  portalScreen: (domain: Id, portal: Id, branch: string, language: string = DEFAULT_LANGUAGE, screen = 'dashboard') =>
    `${paths.portal(domain, portal)}/branch/${branchToSegment(branch)}/${seg(language)}/${screen || 'dashboard'}`,
  /** Users with the user `id` shown (-1: none). */
  /** The File Explorer at a folder ('/' or none: the portal root). */
  fileExplorer: (domain: Id, portal: Id, branch: string, language: string = DEFAULT_LANGUAGE, folder?: string) =>
    paths.portalScreen(domain, portal, branch, language, 'file-explorer') +
    (folder && folder !== '/' ? `?path=${encodeURIComponent(folder)}` : ''),
  /** The conflict resolution screen of the caller's local commits. */
  portalConflicts: (domain: Id, portal: Id, branch: string, language: string = DEFAULT_LANGUAGE) =>
    paths.portalScreen(domain, portal, branch, language, 'conflicts'),
  /** The Readiness screen (issue 29). */
  portalReadiness: (domain: Id, portal: Id, branch: string, language: string = DEFAULT_LANGUAGE) =>
    paths.portalScreen(domain, portal, branch, language, 'readiness'),
  /**
   * The Translation Manager at a key (issue 29, docs/readiness.md "Open"): `?key=<KEY>` selects the
   * key, `&language=<code>` the language whose value to show.
   */
  translationKey: (domain: Id, portal: Id, branch: string, language: string, key: string, keyLanguage?: string) =>
    paths.portalScreen(domain, portal, branch, language, 'translations') + query({ key, language: keyLanguage }),
  /** A page in source mode, optionally at a 1-based line (`?line=<n>`). */
  pageSourceAt: (domain: Id, portal: Id, branch: string, language: string, pageId: string, line?: number) =>
    paths.portalScreen(domain, portal, branch, language, `pages/${seg(pageId)}/source-mode`) +
    query({ line: line && line > 0 ? String(line) : undefined }),
  /**
   * The File Explorer at a file's folder with the file open (`?path=<folder>&open=<file>`), at a
   * JSON pointer (`&pointer=`, for the schema form) and/or a 1-based line (`&line=`, for the source
   * editor: a JSON file without a schema opens there). File and folder with a leading slash,
   * as the File Explorer names them.
   */
  fileExplorerAt: (
    domain: Id,
    portal: Id,
    branch: string,
    language: string,
    file: string,
    at: { line?: number; pointer?: string } = {},
  ) => {
    const open = `/${file.replace(/^\/+/, '')}`;
    const folder = open.slice(0, open.lastIndexOf('/')) || '/';
    return (
      paths.portalScreen(domain, portal, branch, language, 'file-explorer') +
      query({
        path: folder === '/' ? undefined : folder,
        open,
        pointer: at.pointer || undefined,
        line: at.line && at.line > 0 ? String(at.line) : undefined,
      })
    );
  },
  adminUsers: (id: Id = -1) => `/admin/users/${seg(id)}`,
  /** Domains with the domain `id` shown (-1: none). */
  adminDomains: (id: Id = -1) => `/admin/domains/${seg(id)}`,
  adminSearch: () => '/admin/search',
  adminPreferences: () => '/admin/preferences',
  adminOutbox: () => '/admin/outbox',
  adminHistory: () => '/admin/history',
} as const;
