import { create } from 'zustand';
import type { SitemapPage } from '../api/sitemap';
import type { EngineType, SupportLevel } from '../api/portal';

/** A portal's scope as the selection keeps it. */
export type PortalScope = 'full' | 'microsite' | 'captive';

/**
 * The workspace selection chain (spec 1 §4.2): domain → portal → branch,
 * language, page; plus the permissions of the current domain. Selecting a
 * domain clears everything below it.
 */
export interface SelectedDomain {
  id: string | number;
  name: string;
}

export interface SelectedPortal {
  id: string | number;
  name: string;
  supportLevel?: SupportLevel | null;
  engineType?: EngineType | null;
  scope?: PortalScope | null;
}

/** What opening the portal told us (its record and the portal.json of the open branch). */
export interface OpenedPortalInfo {
  type: 'CREW' | 'PASSENGER' | null;
  status: string;
  category: string;
  activeBranch: string;
  lastModified: string;
  languages: string[];
  defaultLanguage: string;
  languageMode: string;
  /** Upper-case scope as the API sends it. */
  scope: 'FULL' | 'MICROSITE' | 'CAPTIVE';
  engineType: EngineType;
  supportLevel: SupportLevel;
}

export interface SelectedPage {
  id: string;
  title: string;
}

export interface SelectionState {
  domain: SelectedDomain | null;
  portal: SelectedPortal | null;
  /** Settings of the opened portal (null while none is open). */
  portalInfo: OpenedPortalInfo | null;
  branch: string | null;
  language: string | null;
  page: SelectedPage | null;
  /**
   * The sitemap of the open portal's workspace (spec 1 §4.6): the synthetic 'master-page' root
   * whose children are the pages. Null while not loaded (or for limited and universal portals).
   */
  sitemap: SitemapPage | null;
  /** What the sitemap was loaded for (sitemapStage.sitemapFor): domain, portal, branch and language. */
  sitemapFor: string | null;
  /** Permissions held in the current domain. */
  permissions: string[];
  /** The user's roles (groups) in the current domain. */
  roles: string[];
  /** The domain the permissions were loaded for (null: none loaded yet). */
  permissionsDomainId: string | null;
  /** Ids of the domains the user may write to (domain_write). */
  writableDomainIds: Array<string | number>;
}

const emptyBelowDomain = {
  portal: null,
  portalInfo: null,
  branch: null,
  language: null,
  page: null,
  sitemap: null,
  sitemapFor: null,
} as const;
const noPermissions = (): Pick<SelectionState, 'permissions' | 'roles' | 'permissionsDomainId'> => ({
  permissions: [],
  roles: [],
  permissionsDomainId: null,
});

export const initialSelectionState: SelectionState = {
  domain: null,
  ...emptyBelowDomain,
  ...noPermissions(),
  writableDomainIds: [],
};

export const useSelectionStore = create<SelectionState>(() => ({ ...initialSelectionState }));

export function selectDomain(domain: SelectedDomain | null): void {
  const current = useSelectionStore.getState().domain;
  if (current && domain && String(current.id) === String(domain.id)) {
    useSelectionStore.setState({ domain });
    return;
  }
  useSelectionStore.setState({ domain, ...emptyBelowDomain, ...noPermissions() });
}

/** The roles and permissions of the user in a domain (spec 1 §6; stored lower case). */
export function setDomainPermissions(domainId: string | number, roles: string[], permissions: string[]): void {
  useSelectionStore.setState({
    roles: [...roles],
    permissions: permissions.map((p) => p.toLowerCase()),
    permissionsDomainId: String(domainId),
  });
}

export function setWritableDomainIds(ids: Array<string | number>): void {
  useSelectionStore.setState({ writableDomainIds: ids });
}

/** Opens a portal: its branch and language; clears the sitemap and page (spec 1 §4.2). */
export function selectPortal(portal: SelectedPortal, info: OpenedPortalInfo, branch: string, language: string): void {
  useSelectionStore.setState({
    portal,
    portalInfo: info,
    branch,
    language,
    page: null,
    sitemap: null,
    sitemapFor: null,
  });
}

/** The loaded sitemap of the open portal (spec 1 §4.6). */
export function setSitemap(sitemap: SitemapPage | null, sitemapFor: string | null): void {
  useSelectionStore.setState({ sitemap, sitemapFor });
}

/** The current page (the page of the pages route, or none). */
export function setSelectedPage(page: SelectedPage | null): void {
  const current = useSelectionStore.getState().page;
  if (current?.id === page?.id && current?.title === page?.title) return;
  useSelectionStore.setState({ page });
}

/**
 * The open portal's settings changed in the workspace (a save of portal.json): the portal
 * info follows (languages for the language picker, engine type, support level, scope).
 */
export function updatePortalInfo(
  portalId: string | number,
  patch: Partial<
    Pick<OpenedPortalInfo, 'languages' | 'defaultLanguage' | 'languageMode' | 'scope' | 'engineType' | 'supportLevel'>
  >,
): void {
  const { portal, portalInfo } = useSelectionStore.getState();
  if (!portal || !portalInfo || String(portal.id) !== String(portalId)) return;
  useSelectionStore.setState({
    portalInfo: { ...portalInfo, ...patch },
    portal: {
      ...portal,
      supportLevel: patch.supportLevel ?? portal.supportLevel,
      engineType: patch.engineType ?? portal.engineType,
      scope: patch.scope ? (patch.scope.toLowerCase() as SelectedPortal['scope']) : portal.scope,
    },
  });
}

/** Another branch: its sitemap and pages are loaded again. */
export function setSelectedBranch(branch: string): void {
  if (useSelectionStore.getState().branch === branch) return;
  useSelectionStore.setState({ branch, page: null, sitemap: null, sitemapFor: null });
}

/** Switches language; the page is kept only in translation mode (spec 1 §4.2); the sitemap is cleared. */
export function setSelectedLanguage(language: string): void {
  const { portalInfo, page, language: current } = useSelectionStore.getState();
  if (language === current) return;
  // The sitemap is loaded again for the language (the chain's sitemap stage).
  useSelectionStore.setState({
    language,
    page: portalInfo?.languageMode === 'TRANSLATION' ? page : null,
    sitemap: null,
    sitemapFor: null,
  });
}

/** Closes the portal: clears language, branch, page, settings and sitemap. */
export function closePortal(): void {
  useSelectionStore.setState({ ...emptyBelowDomain });
}

/** Forgets the whole selection (sign-out). */
export function resetSelection(): void {
  useSelectionStore.setState({ ...initialSelectionState });
}
