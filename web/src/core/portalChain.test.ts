import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../api/authStorage';
import { errorResponse, jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../test/helpers';
import { overlay } from './overlayStore';
import { useSessionStore } from './sessionStore';
import {
  clearBuildWithoutLivePreview,
  closePortal,
  onPortalEvent,
  parsePortalRoute,
  portalRoutePath,
  runPortalChain,
  type PortalChainEvent,
} from './portalChain';
import { clearPortalError, portalErrorActions, usePortalErrorStore } from './portalError';
import { initialSelectionState, useSelectionStore } from './selectionStore';
import { toApiError } from '../api/errors';
import { errorFromResponse } from '../api/errors';

const portal = (id: number, name: string) => ({
  id,
  domainId: 1,
  name,
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
});

const settings = (supportLevel: 'FULL' | 'LIMITED') => ({
  engineType: supportLevel === 'FULL' ? 'PORTAL_ENGINE' : 'JS_ENGINE',
  supportLevel,
  scope: 'FULL',
  oneMediaInterstitialSupported: false,
  languageSettings: {
    languages: ['en_GB', 'fr_FR'],
    defaultLanguage: 'en_GB',
    languageMode: 'TRANSLATION',
    languageBasePath: '',
    translationsBasePath: 'translations',
  },
  taskRunnerSettings: {
    active: false,
    autoRun: false,
    extensions: [],
    outputPath: '',
    dockerFileContent: '',
    templateName: '',
  },
});

function mockServer(supportLevel: 'FULL' | 'LIMITED' = 'FULL') {
  const opens: string[] = [];
  const fetch = mockFetch({
    'GET api/v1/portal/1': () => jsonResponse([portal(1, 'Crew Portal')]),
    'GET api/v1/portal/1/1/open': ({ url }) => {
      const branch = new URL(url, 'http://x').searchParams.get('branch');
      opens.push(branch ?? '');
      return jsonResponse({
        portal: portal(1, 'Crew Portal'),
        branch: branch ? branch.replace(/:/g, '/') : 'master',
        settings: settings(supportLevel),
        status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
      });
    },
    'GET api/v1/portal_branch/allReferences/1/1': () =>
      jsonResponse({ allReferences: ['master', 'feature/summer'], allTags: [], currentRef: 'master' }),
  });
  return { fetch, opens };
}

let messages: string[];
let events: PortalChainEvent[];
let unsubscribe: () => void;
const replaceUrl = vi.fn();
const leave = vi.fn();
const options = { canReadBranches: true, replaceUrl, leave, href: '/x' };

beforeEach(() => {
  storeTokens({ id_token: jwtExpiringIn(900) });
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser } });
  useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
  clearPortalError();
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

const route = (path: string) => {
  const r = parsePortalRoute(path);
  if (!r) throw new Error(`not a portal route: ${path}`);
  return r;
};

describe('portal routes', () => {
  it("parses the route and writes branches with ':' for '/'", () => {
    expect(route('/domain/1/portal/2/branch/feature:summer/fr_FR/dashboard')).toEqual({
      domainId: '1',
      portalId: '2',
      branchSegment: 'feature:summer',
      language: 'fr_FR',
      rest: 'dashboard',
    });
    expect(route('/domain/1/portal/2').branchSegment).toBeUndefined();
    expect(parsePortalRoute('/domain/1/dashboard')).toBeNull();
    expect(portalRoutePath(1, 2, 'feature/summer', 'fr_FR', 'settings')).toBe(
      '/domain/1/portal/2/branch/feature:summer/fr_FR/settings',
    );
  });
});

describe('the selection chain', () => {
  it("shows 'Switching Branch' (not 'Opening Portal') when the open portal changes branch", async () => {
    const { opens } = mockServer();
    await runPortalChain(route('/domain/1/portal/1/branch/master/en_GB/dashboard'), options);
    messages = [];
    await runPortalChain(route('/domain/1/portal/1/branch/feature:summer/en_GB/dashboard'), options);
    expect(opens).toEqual(['master', 'feature:summer']);
    expect(messages).toContain('Switching Branch');
    expect(messages).not.toContain('Opening Portal');
    expect(useSelectionStore.getState().branch).toBe('feature/summer');
  });

  it('shows the overlays and emits the events in the spec order', async () => {
    mockServer();
    await runPortalChain(route('/domain/1/portal/1/branch/master/fr_FR/dashboard'), options);
    expect(messages).toEqual(['Loading Portals', 'Opening Portal', 'Loading Branches', 'Switching Language']);
    expect(events).toEqual([
      'portalsLoading',
      'portalsLoaded',
      'portalOpening',
      'portalOpened',
      'branchesLoading',
      'branchChanged',
      'languageChanging',
      'languageChanged',
    ]);
    const s = useSelectionStore.getState();
    expect(s.portal).toMatchObject({ id: 1, name: 'Crew Portal', supportLevel: 'FULL', scope: 'full' });
    expect(s.branch).toBe('master');
    expect(s.language).toBe('fr_FR');
    expect(replaceUrl).not.toHaveBeenCalled();
  });

  it("opens the URL's branch with ':' mapped to '/'", async () => {
    const { opens } = mockServer();
    await runPortalChain(route('/domain/1/portal/1/branch/feature:summer/en_GB/dashboard'), options);
    expect(opens).toEqual(['feature:summer']);
    expect(useSelectionStore.getState().branch).toBe('feature/summer');
  });

  it("opens the active branch when the URL has none (or '_'), defaulting the language", async () => {
    const { opens } = mockServer();
    await runPortalChain(route('/domain/1/portal/1'), options);
    expect(opens).toEqual(['']);
    expect(replaceUrl).toHaveBeenCalledWith('/domain/1/portal/1/branch/master/en_GB/dashboard');
    useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
    await runPortalChain(route('/domain/1/portal/1/branch/_/en_GB/settings'), options);
    expect(opens).toEqual(['', '']);
    expect(replaceUrl).toHaveBeenLastCalledWith('/domain/1/portal/1/branch/master/en_GB/settings');
  });

  it('does not switch language for a limited portal', async () => {
    mockServer('LIMITED');
    await runPortalChain(route('/domain/1/portal/1/branch/master/fr_FR/dashboard'), {
      ...options,
      confirmLimited: () => Promise.resolve(true),
    });
    expect(messages).not.toContain('Switching Language');
    expect(events).not.toContain('languageChanging');
    expect(useSelectionStore.getState().language).toBe('en_GB');
    expect(replaceUrl).toHaveBeenCalledWith('/domain/1/portal/1/branch/master/en_GB/dashboard');
  });

  it('goes back to the domain dashboard when the limited overlay is cancelled', async () => {
    mockServer('LIMITED');
    await runPortalChain(route('/domain/1/portal/1/branch/master/en_GB/dashboard'), {
      ...options,
      confirmLimited: () => Promise.resolve(false),
    });
    expect(leave).toHaveBeenCalledWith('/domain/1/dashboard');
    expect(useSelectionStore.getState().portal).toBeNull();
    expect(events).toContain('portalOpenAborted');
  });

  it('only switches language when the portal is already open on the branch', async () => {
    const { opens } = mockServer();
    await runPortalChain(route('/domain/1/portal/1/branch/master/en_GB/dashboard'), options);
    messages = [];
    await runPortalChain(route('/domain/1/portal/1/branch/master/fr_FR/dashboard'), options);
    expect(opens).toHaveLength(1);
    expect(messages).toEqual(['Switching Language']);
    expect(useSelectionStore.getState().language).toBe('fr_FR');
  });

  it('raises PORTAL_OPENING_FAILED with Reset for a git code', async () => {
    mockFetch({
      'GET api/v1/portal/1': () => jsonResponse([portal(1, 'Crew Portal')]),
      'GET api/v1/portal/1/1/open': () =>
        errorResponse(409, { errorCode: 'GIT_LOCAL_COMMITS_ERROR', errorMessage: 'Local commits' }),
    });
    await runPortalChain(route('/domain/1/portal/1/branch/feature:summer/en_GB/dashboard'), options);
    const error = usePortalErrorStore.getState().error;
    expect(error).toMatchObject({ type: 'PORTAL_OPENING_FAILED', message: 'Local commits', branch: 'feature/summer' });
    expect(error && portalErrorActions(error)).toEqual(['reset', 'retry', 'cancel']);
    expect(useSelectionStore.getState().portal).toBeNull();
    expect(events).toContain('portalOpenAborted');
  });

  it('raises PORTALS_LOADING_FAILED when the portals cannot be listed', async () => {
    mockFetch({ 'GET api/v1/portal/1': () => errorResponse(500) });
    await runPortalChain(route('/domain/1/portal/1/branch/master/en_GB/dashboard'), options);
    expect(usePortalErrorStore.getState().error?.type).toBe('PORTALS_LOADING_FAILED');
  });
});

describe('portal error actions', () => {
  const opening = (code: string | number | null) => ({
    type: 'PORTAL_OPENING_FAILED' as const,
    error: code === null ? null : toApiError(errorFromResponse(409, JSON.stringify({ errorCode: code }))),
  });
  it('offers Reset only for the git and branch codes', () => {
    for (const code of ['GIT_CONFLICTS', 'BRANCH_DOES_NOT_EXIST', 'PORTAL_REBASE_ERROR', 19, 134])
      expect(portalErrorActions(opening(code))).toEqual(['reset', 'retry', 'cancel']);
    for (const code of ['PORTAL_NOT_FOUND', 'FORBIDDEN', 21, null])
      expect(portalErrorActions(opening(code))).toEqual(['retry', 'cancel']);
    expect(portalErrorActions({ type: 'PORTALS_LOADING_FAILED', error: null })).toEqual(['retry', 'continue']);
    expect(portalErrorActions({ type: 'BRANCH_LOADING_FAILED', error: null })).toEqual(['retry', 'cancel']);
  });
});

describe('the close rule: no live preview, the build output is cleared (spec 3 §4)', () => {
  const LATEST = 'GET api/v1/preview/1/1/latest';
  const CLEAR = 'POST api/v1/workspace-build/1/1/clear';
  const full = { id: 1, name: 'Crew Portal', supportLevel: 'FULL' as const };
  const withWrite = () => useSelectionStore.setState({ permissions: ['task_write'], permissionsDomainId: '1' });
  const calls = (fetch: { mock: { calls: unknown[][] } }) =>
    fetch.mock.calls.map(
      ([url, init]) => `${(init as RequestInit | undefined)?.method ?? 'GET'} ${String(url).split('?')[0]}`,
    );

  it('clears when the user has no live preview of the portal', async () => {
    const fetch = mockFetch({ [LATEST]: () => jsonResponse(null), [CLEAR]: () => new Response(null, { status: 204 }) });
    withWrite();
    await clearBuildWithoutLivePreview(1, full);
    expect(calls(fetch)).toEqual([LATEST, CLEAR]);
    expect(String(fetch.mock.calls[0][0])).toContain('type=PORTAL_LIVE');
  });

  it('keeps the build when there is a live preview', async () => {
    const fetch = mockFetch({ [LATEST]: () => jsonResponse({ id: 5, type: 'PORTAL_LIVE', status: 'READY' }) });
    withWrite();
    await clearBuildWithoutLivePreview(1, full);
    expect(calls(fetch)).toEqual([LATEST]);
  });

  it('asks nothing without task_write or for a limited portal', async () => {
    const fetch = mockFetch({});
    useSelectionStore.setState({ permissions: ['task_read'] });
    await clearBuildWithoutLivePreview(1, full);
    withWrite();
    await clearBuildWithoutLivePreview(1, { ...full, supportLevel: 'LIMITED' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('never fails: a failed lookup or clear is ignored', async () => {
    withWrite();
    const failing = mockFetch({ [LATEST]: () => errorResponse(403) });
    await expect(clearBuildWithoutLivePreview(1, full)).resolves.toBeUndefined();
    expect(calls(failing)).toEqual([LATEST]);
    mockFetch({ [LATEST]: () => jsonResponse(null), [CLEAR]: () => errorResponse(409) });
    await expect(clearBuildWithoutLivePreview(1, full)).resolves.toBeUndefined();
  });

  it('closePortal closes at once and applies the rule to the portal it closed', async () => {
    let answer: (r: Response) => void = () => {};
    const fetch = mockFetch({
      [LATEST]: () => new Promise<Response>((resolve) => (answer = resolve)),
      [CLEAR]: () => new Response(null, { status: 204 }),
    });
    withWrite();
    useSelectionStore.setState({ portal: full, branch: 'master', language: 'en_GB' });
    closePortal();
    expect(useSelectionStore.getState().portal).toBeNull();
    await vi.waitFor(() => expect(calls(fetch)).toEqual([LATEST]));
    answer(jsonResponse(null));
    await vi.waitFor(() => expect(calls(fetch)).toEqual([LATEST, CLEAR]));
  });

  it('opening another portal closes the open one', async () => {
    const two = { ...portal(1, 'Crew Portal'), id: 2, name: 'Other Portal' };
    const fetch = mockFetch({
      'GET api/v1/portal/1': () => jsonResponse([portal(1, 'Crew Portal'), two]),
      'GET api/v1/portal/1/2/open': () =>
        jsonResponse({
          portal: two,
          branch: 'master',
          settings: settings('FULL'),
          status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
        }),
      'GET api/v1/portal_branch/allReferences/1/2': () =>
        jsonResponse({ allReferences: ['master'], allTags: [], currentRef: 'master' }),
      [LATEST]: () => jsonResponse(null),
      [CLEAR]: () => new Response(null, { status: 204 }),
    });
    withWrite();
    useSelectionStore.setState({
      portal: full,
      portalInfo: { ...settingsInfoStub },
      branch: 'master',
      language: 'en_GB',
    });
    await runPortalChain(route('/domain/1/portal/2/branch/master/en_GB/dashboard'), options);
    expect(String(useSelectionStore.getState().portal?.id)).toBe('2');
    await vi.waitFor(() => expect(calls(fetch)).toContain(CLEAR));
    // Only the closed portal's build is touched.
    expect(calls(fetch).filter((c) => c.includes('/1/2/') && (c.includes('latest') || c.includes('clear')))).toEqual(
      [],
    );
  });
});

const settingsInfoStub = {
  type: 'CREW' as const,
  status: 'active',
  category: 'Crew Portals',
  activeBranch: 'master',
  lastModified: '2026-01-02T00:00:00Z',
  languages: ['en_GB'],
  defaultLanguage: 'en_GB',
  languageMode: 'SINGLE_LANGUAGE',
  scope: 'FULL' as const,
  engineType: 'PORTAL_ENGINE' as const,
  supportLevel: 'FULL' as const,
};
