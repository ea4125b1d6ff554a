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
  adminUsers: (id: Id = -1) => `/admin/users/${seg(id)}`,
  /** Domains with the domain `id` shown (-1: none). */
  adminDomains: (id: Id = -1) => `/admin/domains/${seg(id)}`,
  adminSearch: () => '/admin/search',
  adminPreferences: () => '/admin/preferences',
  adminOutbox: () => '/admin/outbox',
  adminHistory: () => '/admin/history',
} as const;
