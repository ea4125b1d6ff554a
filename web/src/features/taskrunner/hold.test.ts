import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import type { TaskRunnerPhase } from '../../api/taskRunner';
import { overlay, useOverlayStore } from '../../core/overlayStore';
import { parsePortalRoute, runPortalChain } from '../../core/portalChain';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';
import { jsonResponse, jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { waitForTasks, WAITING_ON_TASKS_MESSAGE } from './hold';
import './register';
import { clearTaskRunnerState, setTaskRunnerState } from './taskRunnerStore';

const set = (phase: TaskRunnerPhase) => setTaskRunnerState('1/1', { phase });
const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  clearTaskRunnerState();
  overlay.hide();
});
afterEach(() => {
  clearTaskRunnerState();
  overlay.hide();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('waitForTasks', () => {
  it('resolves at once when no tasks run', async () => {
    set('STABLE');
    await waitForTasks();
    expect(useOverlayStore.getState().visible).toBe(false);
    clearTaskRunnerState();
    await waitForTasks();
  });

  it.each(['VALIDATING', 'RUNNING'] as const)(
    'waits behind the overlay while %s until a STABLE state arrives, then puts the previous overlay back',
    async (phase) => {
      set(phase);
      overlay.show('Switching Branch');
      let done = false;
      const waiting = waitForTasks().then(() => (done = true));
      expect(useOverlayStore.getState()).toMatchObject({ visible: true, message: WAITING_ON_TASKS_MESSAGE });
      expect(WAITING_ON_TASKS_MESSAGE).toBe('Waiting on tasks to finish validating and running...');
      set('RUNNING');
      await flush();
      expect(done).toBe(false);
      set('STABLE');
      await waiting;
      expect(useOverlayStore.getState()).toMatchObject({ visible: true, message: 'Switching Branch' });
    },
  );

  it('re-reads the state every 5 s while holding (a lost message does not hold forever)', async () => {
    vi.useFakeTimers();
    let phase: TaskRunnerPhase = 'RUNNING';
    storeTokens({ id_token: jwtExpiringIn(900) });
    const fetch = mockFetch({ 'GET api/v1/workspace-build/1/1/state': () => jsonResponse({ phase }) });
    set('RUNNING');
    let done = false;
    const waiting = waitForTasks().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(done).toBe(false);
    phase = 'UNSTABLE';
    await vi.advanceTimersByTimeAsync(5000);
    await waiting;
    expect(fetch).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });

  it('ends when the state is cleared and cannot be read (portal closed) and hides an overlay it put up', async () => {
    set('RUNNING');
    const waiting = waitForTasks();
    clearTaskRunnerState();
    await waiting;
    expect(useOverlayStore.getState().visible).toBe(false);
  });

  it('keeps waiting when the state is cleared (the header went away on logout) while the server still runs the tasks', async () => {
    let phase: TaskRunnerPhase = 'RUNNING';
    storeTokens({ id_token: jwtExpiringIn(900) });
    const fetch = mockFetch({ 'GET api/v1/workspace-build/1/1/state': () => jsonResponse({ phase }) });
    set('RUNNING');
    let done = false;
    const waiting = waitForTasks().then(() => (done = true));
    clearTaskRunnerState();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    expect(useOverlayStore.getState().message).toBe(WAITING_ON_TASKS_MESSAGE);
    phase = 'STABLE';
    await vi.waitFor(() => expect(done).toBe(true), { timeout: 30_000 });
    await waiting;
  });
});

const portal = {
  id: 1,
  domainId: 1,
  name: 'Crew Portal',
  type: 'CREW',
  scope: 'FULL',
  status: 'active',
  category: 'Crew Portals',
  activeBranch: 'master',
};

describe('the selection chain holds a switch while tasks run', () => {
  it("shows 'Waiting on tasks…' before 'Switching Branch'/'Opening Portal' and opens only after STABLE", async () => {
    storeTokens({ id_token: jwtExpiringIn(900) });
    useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser } });
    useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
    const opens: string[] = [];
    mockFetch({
      'GET api/v1/portal/1': () => jsonResponse([portal]),
      'GET api/v1/portal/1/1/open': ({ url }) => {
        const branch = new URL(url, 'http://x').searchParams.get('branch') ?? '';
        opens.push(branch);
        return jsonResponse({
          portal,
          branch: branch ? branch.replace(/:/g, '/') : 'master',
          settings: {
            engineType: 'UNIVERSAL',
            supportLevel: 'FULL',
            scope: 'FULL',
            languageSettings: { languages: ['en_GB'], defaultLanguage: 'en_GB', languageMode: 'SINGLE_LANGUAGE' },
          },
          status: { branch: 'master', changes: {}, aheadCount: 0, behindCount: 0 },
        });
      },
      'GET api/v1/portal_branch/allReferences/1/1': () =>
        jsonResponse({ allReferences: ['master', 'feature/summer'], allTags: [], currentRef: 'master' }),
    });
    const messages: string[] = [];
    const show = overlay.show.bind(overlay);
    vi.spyOn(overlay, 'show').mockImplementation((o) => {
      messages.push(typeof o === 'string' ? o : (o?.message ?? ''));
      show(o);
    });
    const options = { canReadBranches: true, replaceUrl: vi.fn(), leave: vi.fn(), href: '/x' };
    const route = (p: string) => parsePortalRoute(p)!;
    await runPortalChain(route('/domain/1/portal/1/branch/master/en_GB/dashboard'), options);
    expect(opens).toEqual(['master']);

    set('RUNNING');
    messages.length = 0;
    const switching = runPortalChain(route('/domain/1/portal/1/branch/feature:summer/en_GB/dashboard'), options);
    await new Promise((r) => setTimeout(r, 50));
    expect(messages).toContain(WAITING_ON_TASKS_MESSAGE);
    expect(opens).toEqual(['master']);
    set('STABLE');
    await switching;
    expect(opens).toEqual(['master', 'feature:summer']);
    expect(messages.indexOf(WAITING_ON_TASKS_MESSAGE)).toBeLessThan(messages.indexOf('Switching Branch'));
    expect(useSelectionStore.getState().branch).toBe('feature/summer');
  });
});
