import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from '../../api/authStorage';
import { useOverlayStore } from '../../core/overlayStore';
import { logout } from '../../core/session';
import './register';
import { initialSessionState, useSessionStore } from '../../core/sessionStore';
import { jwtExpiringIn, mockFetch, sampleUser } from '../../test/helpers';
import { WAITING_ON_TASKS_MESSAGE } from './hold';
import { clearTaskRunnerState, setTaskRunnerState } from './taskRunnerStore';

vi.mock('../../core/location', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../core/location')>()),
  reloadPage: vi.fn(),
}));

afterEach(() => {
  clearTaskRunnerState();
  useSessionStore.setState({ ...initialSessionState });
  useOverlayStore.setState({ visible: false });
  vi.unstubAllGlobals();
});

describe('logout waits for running tasks', () => {
  it("shows 'Waiting on tasks…' and signs out only once the tasks have finished", async () => {
    storeTokens({ id_token: jwtExpiringIn(900), refresh_token: 'r' });
    useSessionStore.setState({ status: 'loggedIn', user: sampleUser, autoLogin: false });
    const fetch = mockFetch({ 'POST api/v1/user/logout': () => new Response(null, { status: 204 }) });
    setTaskRunnerState('1/3', { phase: 'VALIDATING' });
    const seen: string[] = [];
    const stop = useOverlayStore.subscribe((s) => s.visible && seen.push(s.message));
    const out = logout();
    await new Promise((r) => setTimeout(r, 20));
    expect(useOverlayStore.getState().message).toBe(WAITING_ON_TASKS_MESSAGE);
    expect(fetch).not.toHaveBeenCalled();
    setTaskRunnerState('1/3', { phase: 'STABLE' });
    await out;
    stop();
    expect(fetch).toHaveBeenCalledOnce();
    expect(seen).toEqual(['Please Wait - Logging Out', WAITING_ON_TASKS_MESSAGE, 'Please Wait - Logging Out']);
    expect(useSessionStore.getState().status).toBe('loggedOut');
  });
});
