/**
 * The portal half of the selection chain (spec 1 §4.2, spec 3 §4): from a portal route
 * (domain/{d}/portal/{p}/branch/{branch}/{language}/…) to an open portal with its branch and
 * language. Each stage shows its overlay ('Loading Portals', 'Opening Portal' or, when the open
 * portal changes branch, 'Switching Branch', 'Loading Branches', 'Switching Language') and emits its events in the spec's order; a failure closes
 * the portal and raises a global error (PORTALS_LOADING_FAILED, PORTAL_OPENING_FAILED,
 * BRANCH_LOADING_FAILED).
 */
import { matchPath } from 'react-router';
import { toApiError, type ApiError } from '../api/errors';
import { paths, patterns } from './paths';
import {
  branchFromUrl,
  branchToUrl,
  portalApi,
  type OpenedPortal,
  type Portal,
  type PortalSettings,
  type References,
} from '../api/portal';
import { previewApi } from '../api/preview';
import { taskRunnerApi } from '../api/taskRunner';
import { overlay } from './overlayStore';
import { hasPermission } from './permissions';
import { useSessionStore } from './sessionStore';
import {
  closePortal as clearPortalSelection,
  selectPortal,
  setSelectedLanguage,
  useSelectionStore,
  type OpenedPortalInfo,
  type SelectedPortal,
} from './selectionStore';
import { raisePortalError } from './portalError';
import { warnOnUpstream } from './commitNotices';
import { holdNavigation } from './registry';

export const CHAIN_MESSAGES = {
  loadingPortals: 'Loading Portals',
  openingPortal: 'Opening Portal',
  /** A branch switch of the open portal (spec 3 §4 "Branch switching"). */
  switchingBranch: 'Switching Branch',
  loadingBranches: 'Loading Branches',
  switchingLanguage: 'Switching Language',
  loadingSitemap: 'Loading Sitemap',
  portalsFailed: 'Failed to load portals',
  portalFailed: 'Failed to open the portal for editing',
  branchesFailed: 'Failed to retrieve portal branches',
  /** Spec 1 §8, spec 2 §8: the sitemap-loading global error (5xx). */
  sitemapFailed: 'Failed to retrieve Sitemap.',
  /** The toast title of other sitemap failures when the server sent none. */
  sitemapFailedToast: 'Failed to retrieve SiteMap.',
} as const;

export type PortalChainEvent =
  | 'portalsLoading'
  | 'portalsLoaded'
  | 'portalOpening'
  | 'portalOpened'
  | 'portalOpenAborted'
  | 'branchesLoading'
  | 'branchChanged'
  | 'languageChanging'
  | 'languageChanged'
  | 'sitemapLoading'
  | 'sitemapLoaded'
  | 'sitemapFailed';

type Listener = (event: PortalChainEvent) => void;
const listeners = new Set<Listener>();

/** Subscribes to the chain's events; returns the unsubscribe function. */
export function onPortalEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Emits a chain event (the sitemap stage, app/selection/sitemapStage.ts, emits its own). */
export function emitPortalEvent(event: PortalChainEvent): void {
  emit(event);
}

function emit(event: PortalChainEvent): void {
  for (const listener of listeners) listener(event);
}

/** The placeholder of a missing branch segment: the portal's active branch. */
export const ACTIVE_BRANCH_SEGMENT = '_';
export const DEFAULT_LANGUAGE = 'en_GB';

export interface PortalRoute {
  domainId: string;
  portalId: string;
  /** The branch as the URL carries it (':' for '/'); undefined or '_' → the active branch. */
  branchSegment?: string;
  language?: string;
  /** The rest of the path after the language, e.g. 'dashboard'. */
  rest: string;
}

const PATTERNS = [
  `/${patterns.portalModule}/*`,
  `/${patterns.portalModule}`,
  `/${patterns.portalBranch}`,
  `/${patterns.portal}`,
];

/** The portal route of a pathname, or null when it is not one. */
export function parsePortalRoute(pathname: string): PortalRoute | null {
  for (const pattern of PATTERNS) {
    const match = matchPath({ path: pattern, end: true }, pathname);
    if (match?.params.domain && match.params.portal) {
      const { domain, portal, branch, language } = match.params;
      return { domainId: domain, portalId: portal, branchSegment: branch, language, rest: match.params['*'] ?? '' };
    }
  }
  return null;
}

/** The route of a portal screen: branch with ':' for '/'. */
export function portalRoutePath(
  domainId: string | number,
  portalId: string | number,
  branch: string,
  language: string,
  rest = 'dashboard',
): string {
  return paths.portalScreen(domainId, portalId, branch, language, rest);
}

export const isLimited = (supportLevel: string | null | undefined) => (supportLevel ?? 'LIMITED') === 'LIMITED';

/**
 * Spec 3 §4 "Previews" / "Task runner": when a portal closes and the user has no live preview
 * of it, its build output is cleared (POST workspace-build/{d}/{p}/clear). Only with
 * task_write and for portals that are not limited; fire-and-forget: closing never waits for
 * it, and a failure is ignored (no toast). Resolves when done (tests).
 */
export function clearBuildWithoutLivePreview(
  domainId: string | number,
  portal: Pick<SelectedPortal, 'id' | 'supportLevel'>,
): Promise<void> {
  const { permissions } = useSelectionStore.getState();
  const isAdmin = !!useSessionStore.getState().user?.admin;
  if (!hasPermission({ isAdmin, permissions }, 'task_write') || isLimited(portal.supportLevel))
    return Promise.resolve();
  return (async () => {
    try {
      const live = await previewApi.latest(domainId, portal.id, 'PORTAL_LIVE');
      if (live === null) await taskRunnerApi.clear(domainId, portal.id);
    } catch {
      // Closing the portal never fails on it.
    }
  })();
}

/** Closes the open portal (its selection), applying the close rule above to it. */
export function closePortal(): void {
  const { domain, portal } = useSelectionStore.getState();
  clearPortalSelection();
  if (domain && portal) void clearBuildWithoutLivePreview(domain.id, portal);
}

/** The selection-store view of an open portal. */
export function openedToSelection(opened: OpenedPortal): { portal: SelectedPortal; info: OpenedPortalInfo } {
  const { portal, settings } = opened;
  const scope = settings.scope || portal.scope || 'FULL';
  return {
    portal: {
      id: portal.id,
      name: portal.name,
      supportLevel: settings.supportLevel ?? 'LIMITED',
      engineType: settings.engineType ?? 'UNKNOWN',
      scope: scope.toLowerCase() as SelectedPortal['scope'],
    },
    info: {
      type: settings.type ?? portal.type ?? null,
      status: portal.status,
      category: portal.category,
      activeBranch: portal.activeBranch,
      lastModified: portal.lastModified,
      ...settingsInfo(settings, scope),
    },
  };
}

/** The part of the selection's portal info that comes from portal.json. */
export function settingsInfo(
  settings: PortalSettings,
  fallbackScope: string = 'FULL',
): Pick<OpenedPortalInfo, 'languages' | 'defaultLanguage' | 'languageMode' | 'scope' | 'engineType' | 'supportLevel'> {
  const lang = settings.languageSettings;
  return {
    languages: lang?.languages?.length ? lang.languages : [lang?.defaultLanguage || DEFAULT_LANGUAGE],
    defaultLanguage: lang?.defaultLanguage || DEFAULT_LANGUAGE,
    languageMode: lang?.languageMode ?? 'SINGLE_LANGUAGE',
    scope: (settings.scope || fallbackScope) as OpenedPortalInfo['scope'],
    engineType: settings.engineType ?? 'UNKNOWN',
    supportLevel: settings.supportLevel ?? 'LIMITED',
  };
}

/** The language to use: the URL's when the portal has it, else its default. */
export function resolveLanguage(info: OpenedPortalInfo, urlLanguage: string | undefined): string {
  if (isLimited(info.supportLevel)) return info.defaultLanguage;
  return urlLanguage && info.languages.includes(urlLanguage) ? urlLanguage : info.defaultLanguage;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** allReferences, retried up to 4 times 250 ms apart (spec 1 §9). */
export async function loadReferences(domainId: string | number, portalId: string | number): Promise<References> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= 4; attempt++) {
    if (attempt > 0) await sleep(250);
    try {
      return await portalApi.references(domainId, portalId);
    } catch (error) {
      lastError = error;
      const status = toApiError(error).httpStatus;
      if (status === 401 || status === 403 || status === 404) break;
    }
  }
  throw lastError;
}

export interface ChainOptions {
  /** Whether the user may list branches (branch:r); without it the branch list is not loaded. */
  canReadBranches: boolean;
  /** Asks before a LIMITED portal opens (the limited-mode overlay); false goes back. */
  confirmLimited?: (portal: SelectedPortal) => Promise<boolean>;
  /** Replaces the URL (canonical branch and language segments). */
  replaceUrl: (path: string) => void;
  /** Leaves the portal, e.g. back to the domain dashboard. */
  leave: (path: string) => void;
  /** The failing URL (retried by Retry). */
  href: string;
}

function fail(
  type: 'PORTALS_LOADING_FAILED' | 'PORTAL_OPENING_FAILED' | 'BRANCH_LOADING_FAILED',
  title: string,
  error: ApiError | null,
  route: PortalRoute,
  href: string,
  branch?: string,
) {
  closePortal();
  raisePortalError({
    type,
    title,
    message: error?.errorMessage ?? title,
    href,
    error,
    domainId: route.domainId,
    portalId: route.portalId,
    branch: branch ?? null,
  });
}

/**
 * Brings the selection in line with a portal route. Returns the canonical path when the URL
 * had to be rewritten, null otherwise.
 */
export async function runPortalChain(route: PortalRoute, options: ChainOptions): Promise<void> {
  const state = useSelectionStore.getState();
  const urlBranch =
    route.branchSegment && route.branchSegment !== ACTIVE_BRANCH_SEGMENT
      ? branchFromUrl(route.branchSegment)
      : undefined;
  const sameBranch = urlBranch === undefined || urlBranch === state.branch;

  // The portal is open on this branch: only the language may change.
  if (state.portal && String(state.portal.id) === route.portalId && state.portalInfo && state.branch && sameBranch) {
    const language = resolveLanguage(state.portalInfo, route.language);
    if (language !== state.language) {
      emit('languageChanging');
      overlay.show(CHAIN_MESSAGES.switchingLanguage);
      setSelectedLanguage(language);
      emit('languageChanged');
      overlay.hide();
    }
    const canonical = portalRoutePath(route.domainId, route.portalId, state.branch, language, route.rest);
    if (!route.branchSegment || route.branchSegment === ACTIVE_BRANCH_SEGMENT || route.language !== language)
      options.replaceUrl(canonical);
    return;
  }

  // Portals
  emit('portalsLoading');
  overlay.show(CHAIN_MESSAGES.loadingPortals);
  let portal: Portal | undefined;
  try {
    const portals = await portalApi.list(route.domainId);
    portal = portals.find((p) => String(p.id) === route.portalId);
    emit('portalsLoaded');
  } catch (error) {
    overlay.hide();
    fail('PORTALS_LOADING_FAILED', CHAIN_MESSAGES.portalsFailed, toApiError(error), route, options.href);
    return;
  }
  if (!portal) {
    overlay.hide();
    emit('portalOpenAborted');
    fail('PORTAL_OPENING_FAILED', CHAIN_MESSAGES.portalFailed, null, route, options.href, urlBranch);
    return;
  }

  // Portal open
  emit('portalOpening');
  // The same portal on another branch (a URL naming it, Back after a switch) is a branch switch.
  const switching = !!state.portal && String(state.portal.id) === route.portalId && !sameBranch;
  await holdNavigation(); // spec 3 §4: a portal or branch switch waits for running tasks (features/taskrunner)
  overlay.show(switching ? CHAIN_MESSAGES.switchingBranch : CHAIN_MESSAGES.openingPortal);
  let opened: OpenedPortal;
  try {
    opened = await portalApi.open(route.domainId, route.portalId, urlBranch);
  } catch (error) {
    overlay.hide();
    emit('portalOpenAborted');
    fail(
      'PORTAL_OPENING_FAILED',
      CHAIN_MESSAGES.portalFailed,
      toApiError(error),
      route,
      options.href,
      urlBranch ?? portal.activeBranch,
    );
    return;
  }
  const { portal: selected, info } = openedToSelection(opened);
  const branch = opened.branch || urlBranch || portal.activeBranch || 'master';
  overlay.hide();
  warnOnUpstream(opened.upstreamWarning);

  if (isLimited(info.supportLevel) && options.confirmLimited) {
    const proceed = await options.confirmLimited(selected);
    if (!proceed) {
      emit('portalOpenAborted');
      closePortal();
      options.leave(paths.domainDashboard(route.domainId));
      return;
    }
  }
  // Another portal replaces the open one: that one closes (spec 3 §4, the close rule).
  const previous = useSelectionStore.getState();
  if (previous.domain && previous.portal && String(previous.portal.id) !== route.portalId)
    void clearBuildWithoutLivePreview(previous.domain.id, previous.portal);
  const language = resolveLanguage(info, route.language);
  selectPortal(selected, info, branch, info.defaultLanguage);
  emit('portalOpened');

  // Branches
  emit('branchesLoading');
  overlay.show(CHAIN_MESSAGES.loadingBranches);
  if (options.canReadBranches) {
    try {
      await loadReferences(route.domainId, route.portalId);
    } catch (error) {
      overlay.hide();
      fail('BRANCH_LOADING_FAILED', CHAIN_MESSAGES.branchesFailed, toApiError(error), route, options.href, branch);
      return;
    }
  }
  emit('branchChanged');
  overlay.hide();

  // Language (not switched for limited portals)
  if (!isLimited(info.supportLevel)) {
    emit('languageChanging');
    overlay.show(CHAIN_MESSAGES.switchingLanguage);
    setSelectedLanguage(language);
    emit('languageChanged');
    overlay.hide();
  }

  const canonical = portalRoutePath(route.domainId, route.portalId, branch, language, route.rest);
  if (branchToUrl(branch) !== route.branchSegment || route.language !== language || !route.rest)
    options.replaceUrl(canonical);
}
