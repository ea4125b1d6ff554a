import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { sitemapKeys } from '../../api/sitemap';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { createQueryClient } from '../../core/queryClient';
import { overlay } from '../../core/overlayStore';
import { useSessionStore } from '../../core/sessionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { onPortalEvent, parsePortalRoute, type PortalChainEvent } from '../../core/portalChain';
import { clearPortalError, portalErrorActions, usePortalErrorStore } from '../../core/portalError';
import { resolveSelection } from './resolveSelection';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { withMasterRoot } from './sitemapStage';

const portal = {
  id: 1,
  domainId: 1,
  name: 'Crew Portal',
  type: 'CREW',
  scope: 'FULL',
  status: 'active',
  categoryId: 1,
  category: 'Crew Portals',
  activeBranch: 'master',
  url: '',
  source: 'template',
  createdAt: '2026-01-01T00:00:00Z',
  lastModified: '2026-01-02T00:00:00Z',
  deactivated: false,
};

type Kind = 'crew' | 'limited' | 'universal';
const settings = (kind: Kind, languageMode = 'SINGLE_LANGUAGE') => ({
  engineType: kind === 'crew' ? 'PORTAL_ENGINE' : kind === 'limited' ? 'JS_ENGINE' : 'UNIVERSAL',
  supportLevel: kind === 'limited' ? 'LIMITED' : 'FULL',
  scope: 'FULL',
  languageSettings: {
    languages: ['en_GB', 'fr_FR'],
    defaultLanguage: 'en_GB',
    languageMode,
    languageBasePath: '',
    translationsBasePath: 'translations',
  },
});

export const SITEMAP = {
  id: 'master-page',
  title: 'Master Page',
  url: '/index.html',
  isMaster: true,
  children: [
    { id: 'home', title: 'Home', children: [{ id: 'weather', title: 'Weather', children: [] }] },
    { id: 'news', title: 'News', children: [] },
  ],
};

function mockServer(kind: Kind = 'crew', sitemap: () => Response = () => jsonResponse(SITEMAP), languageMode?: string) {
  const counts = { sitemap: 0 };
  const fetch = mockFetch({
    'GET api/v1/portal/1': () => jsonResponse([portal]),
    'GET api/v1/portal/1/1/open': ({ url }) => {
      const branch = new URL(url, 'http://x').searchParams.get('branch');
      return jsonResponse({
        portal,
        branch: branch ? branch.replace(/:/g, '/') : 'master',
        settings: settings(kind, languageMode),
        status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
      });
    },
    'GET api/v1/portal_branch/allReferences/1/1': () =>
      jsonResponse({ allReferences: ['master', 'feature/summer'], allTags: [], currentRef: 'master' }),
    'GET api/v1/page/1/1/sitemap': () => {
      counts.sitemap++;
      return sitemap();
    },
  });
  return { fetch, counts };
}

let messages: string[];
let events: PortalChainEvent[];
let unsubscribe: () => void;
const replaceUrl = vi.fn();
const leave = vi.fn();
let queryClient = createQueryClient();
const options = () => ({
  canReadBranches: true,
  replaceUrl,
  leave,
  href: '/x',
  queryClient,
  confirmLimited: () => Promise.resolve(true),
});

const route = (path: string) => {
  const r = parsePortalRoute(path);
  if (!r) throw new Error(`not a portal route: ${path}`);
  return r;
};
const base = '/domain/1/portal/1/branch/master';

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser, admin: true } });
  useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
  clearPortalError();
  clearToasts();
  queryClient = createQueryClient();
  messages = [];
  events = [];
  vi.spyOn(overlay, 'show').mockImplementation((o) => {
    messages.push(typeof o === 'string' ? o : (o?.message ?? ''));
  });
  unsubscribe = onPortalEvent((e) => events.push(e));
  replaceUrl.mockReset();
  leave.mockReset();
});
afterEach(() => {
  unsubscribe();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the sitemap stage', () => {
  it("loads the sitemap after the language behind 'Loading Sitemap', into the store and the shared query", async () => {
    mockServer();
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    expect(messages).toEqual([
      'Loading Portals',
      'Opening Portal',
      'Loading Branches',
      'Switching Language',
      'Loading Sitemap',
    ]);
    expect(events.slice(-3)).toEqual(['languageChanged', 'sitemapLoading', 'sitemapLoaded']);
    const { sitemap } = useSelectionStore.getState();
    expect(sitemap).toMatchObject({ id: 'master-page', title: 'Master Page', url: '/index.html' });
    expect(sitemap?.children?.map((p) => p.id)).toEqual(['home', 'news']);
    // The same key as features/widgets/useSitemap: every page selector shares it.
    expect(queryClient.getQueryData(sitemapKeys.sitemap(1, 1))).toEqual(SITEMAP);
  });

  it('loads it once per branch and language, again after a language switch', async () => {
    const { counts } = mockServer();
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    await resolveSelection(route(`${base}/en_GB/settings`), options());
    expect(counts.sitemap).toBe(1);
    await resolveSelection(route(`${base}/fr_FR/settings`), options());
    expect(counts.sitemap).toBe(2);
  });

  it('wraps a bare page list in the synthetic master-page root', () => {
    expect(withMasterRoot([{ id: 'a', title: 'A' }])).toEqual({
      id: 'master-page',
      title: 'Master Page',
      url: '/index.html',
      isMaster: true,
      children: [{ id: 'a', title: 'A' }],
    });
    expect(withMasterRoot(SITEMAP)).toBe(SITEMAP);
  });

  it('does not load a sitemap for a user without page_read (no error over their screen)', async () => {
    useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser, admin: false } });
    useSelectionStore.setState({ permissions: ['portal_read', 'portal_settings_read'] });
    const { counts } = mockServer();
    await resolveSelection(route(`${base}/en_GB/settings`), options());
    expect(counts.sitemap).toBe(0);
    expect(messages).not.toContain('Loading Sitemap');
    expect(useSelectionStore.getState().sitemap).toBeNull();
  });

  it('does not load a sitemap for limited or universal portals', async () => {
    const { counts } = mockServer('limited');
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    expect(counts.sitemap).toBe(0);
    expect(messages).not.toContain('Loading Sitemap');
    useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
    const universal = mockServer('universal');
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    expect(universal.counts.sitemap).toBe(0);
  });

  it('raises SITEMAP_LOADING_FAILED (Retry, Cancel) for a 5xx with domain, portal, branch and language', async () => {
    mockServer('crew', () => errorResponse(503, { errorMessage: 'Workspace busy' }));
    await resolveSelection(route(`${base}/fr_FR/dashboard`), { ...options(), href: `${base}/fr_FR/dashboard` });
    const error = usePortalErrorStore.getState().error;
    expect(error).toMatchObject({
      type: 'SITEMAP_LOADING_FAILED',
      title: 'Failed to retrieve Sitemap.',
      message: 'Workspace busy',
      domainId: '1',
      portalId: '1',
      branch: 'master',
      language: 'fr_FR',
      href: `${base}/fr_FR/dashboard`,
    });
    expect(error && portalErrorActions(error)).toEqual(['retry', 'cancel']);
    // Any failure in the loading sequence closes the portal.
    expect(useSelectionStore.getState().portal).toBeNull();
    expect(events).toContain('sitemapFailed');
  });

  it('retries: after the error is cleared the chain opens the portal and loads the sitemap again', async () => {
    let fail = true;
    const { counts } = mockServer('crew', () => (fail ? errorResponse(500) : jsonResponse(SITEMAP)));
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    expect(usePortalErrorStore.getState().error?.type).toBe('SITEMAP_LOADING_FAILED');
    fail = false;
    const before = counts.sitemap;
    clearPortalError(); // what Retry does before running the chain again (PortalChainHost)
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    expect(counts.sitemap).toBe(before + 1);
    expect(useSelectionStore.getState().sitemap?.id).toBe('master-page');
    expect(usePortalErrorStore.getState().error).toBeNull();
  });

  it("shows a danger toast for other failures (server title and message, else 'Failed to retrieve SiteMap.')", async () => {
    mockServer('crew', () => errorResponse(404, { errorTitle: 'Sitemap missing', errorMessage: 'No sitemap.json' }));
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    expect(usePortalErrorStore.getState().error).toBeNull();
    expect(useSelectionStore.getState().portal?.name).toBe('Crew Portal');
    expect(useToastStore.getState().toasts).toMatchObject([
      { type: 'DANGER', title: 'Sitemap missing', message: 'No sitemap.json' },
    ]);
    clearToasts();
    useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
    mockServer('crew', () => new Response('oops', { status: 400 }));
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    expect(useToastStore.getState().toasts).toMatchObject([
      { type: 'DANGER', title: 'Failed to retrieve SiteMap.', message: 'Failed to retrieve SiteMap.' },
    ]);
  });

  it('a workspace refresh reloads the sitemap into the selection', async () => {
    let title = 'Home';
    const { counts } = mockServer('crew', () =>
      jsonResponse({ ...SITEMAP, children: [{ id: 'home', title, children: [] }] }),
    );
    const { followSitemapQuery } = await import('./sitemapStage');
    const stop = followSitemapQuery(queryClient);
    await resolveSelection(route(`${base}/en_GB/dashboard`), options());
    title = 'Welcome';
    await queryClient.invalidateQueries({ queryKey: ['portal', '1', '1'] });
    await vi.waitFor(() => expect(useSelectionStore.getState().sitemap?.children?.[0].title).toBe('Welcome'));
    expect(counts.sitemap).toBe(2);
    stop();
  });
});

describe('pages routes', () => {
  it('makes the route page the current page (valid when it is current)', async () => {
    mockServer();
    await resolveSelection(route(`${base}/en_GB/pages/weather/designer-mode`), options());
    expect(useSelectionStore.getState().page).toEqual({ id: 'weather', title: 'Weather' });
    expect(replaceUrl).not.toHaveBeenCalled();
    await resolveSelection(route(`${base}/en_GB/pages/news/source-mode`), options());
    expect(useSelectionStore.getState().page).toEqual({ id: 'news', title: 'News' });
    expect(replaceUrl).not.toHaveBeenCalled();
  });

  it('opens the master page (the synthetic root)', async () => {
    mockServer();
    await resolveSelection(route(`${base}/en_GB/pages/master-page/designer-mode`), options());
    expect(useSelectionStore.getState().page).toEqual({ id: 'master-page', title: 'Master Page' });
  });

  it('goes to designer mode when the mode is missing or unknown', async () => {
    mockServer();
    await resolveSelection(route(`${base}/en_GB/pages/home/edit-mode`), options());
    expect(replaceUrl).toHaveBeenLastCalledWith(`${base}/en_GB/pages/home/designer-mode`);
  });

  it("sends an unknown page to the current page's designer-mode route, with an error", async () => {
    mockServer();
    await resolveSelection(route(`${base}/en_GB/pages/home/source-mode`), options());
    await resolveSelection(route(`${base}/en_GB/pages/nope/source-mode`), options());
    expect(replaceUrl).toHaveBeenLastCalledWith(`${base}/en_GB/pages/home/designer-mode`);
    expect(useSelectionStore.getState().page?.id).toBe('home');
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      type: 'DANGER',
      message: "Page 'nope' was not found in the sitemap.",
    });
  });

  it('sends an unknown page to the portal dashboard when no page is current', async () => {
    mockServer();
    await resolveSelection(route(`${base}/en_GB/pages/nope/designer-mode`), options());
    expect(replaceUrl).toHaveBeenLastCalledWith(`${base}/en_GB/dashboard`);
    expect(useSelectionStore.getState().page).toBeNull();
  });

  it('keeps page and mode on a language switch (the page is cleared, then the route sets it again)', async () => {
    mockServer();
    await resolveSelection(route(`${base}/en_GB/pages/weather/source-mode`), options());
    const cleared: Array<string | null> = [];
    const stop = useSelectionStore.subscribe((s) => cleared.push(s.page?.id ?? null));
    await resolveSelection(route(`${base}/fr_FR/pages/weather/source-mode`), options());
    stop();
    expect(cleared).toContain(null); // SINGLE_LANGUAGE: switching language clears the page …
    expect(useSelectionStore.getState()).toMatchObject({ language: 'fr_FR', page: { id: 'weather' } });
    expect(replaceUrl).not.toHaveBeenCalled(); // … and the route (page and mode) stays
  });

  it('keeps the page through a language switch in TRANSLATION mode', async () => {
    mockServer('crew', () => jsonResponse(SITEMAP), 'TRANSLATION');
    await resolveSelection(route(`${base}/en_GB/pages/weather/designer-mode`), options());
    const seen: Array<string | null> = [];
    const stop = useSelectionStore.subscribe((s) => seen.push(s.page?.id ?? null));
    await resolveSelection(route(`${base}/fr_FR/pages/weather/designer-mode`), options());
    stop();
    expect(seen).not.toContain(null);
  });

  it('a branch switch rewrites only the branch segment: the page of the other branch is selected', async () => {
    const { counts } = mockServer();
    await resolveSelection(route(`${base}/en_GB/pages/news/source-mode`), options());
    await resolveSelection(route('/domain/1/portal/1/branch/feature:summer/en_GB/pages/news/source-mode'), options());
    expect(useSelectionStore.getState()).toMatchObject({ branch: 'feature/summer', page: { id: 'news' } });
    expect(counts.sitemap).toBe(2);
    expect(replaceUrl).not.toHaveBeenCalled();
  });

  it('sends pages routes of a limited portal to the File Explorer', async () => {
    mockServer('limited');
    await resolveSelection(route(`${base}/en_GB/pages/home/designer-mode`), options());
    expect(replaceUrl).toHaveBeenLastCalledWith(`${base}/en_GB/file-explorer`);
    expect(useSelectionStore.getState().page).toBeNull();
  });

  it('sends pages routes of a universal portal to the File Explorer at content/', async () => {
    mockServer('universal');
    await resolveSelection(route(`${base}/en_GB/pages/home/designer-mode`), options());
    expect(replaceUrl).toHaveBeenLastCalledWith(`${base}/en_GB/file-explorer?path=%2Fcontent`);
    expect(useSelectionStore.getState().page).toBeNull();
  });
});

describe('clearing', () => {
  it('closing the portal clears the sitemap and page', async () => {
    mockServer();
    await resolveSelection(route(`${base}/en_GB/pages/home/designer-mode`), options());
    const { closePortal } = await import('../../core/selectionStore');
    closePortal();
    expect(useSelectionStore.getState()).toMatchObject({ sitemap: null, sitemapFor: null, page: null });
  });
});
