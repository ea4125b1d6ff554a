import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskRunnerPhase, TaskRunnerState } from '../../api/taskRunner';
import { useSelectionStore } from '../../core/selectionStore';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { useRealtimeStore } from '../realtime/realtimeStore';
import { FakeRealtime, note, renderApp, setUp, tearDown } from '../realtime/testing';
import { useSessionStore } from '../../core/sessionStore';
import { taskRunnerStuckMs } from './messages';
import { clearTaskRunnerState, useTaskRunnerStore } from './taskRunnerStore';
import { useTaskRunnerSync } from './useTaskRunnerSync';

const BASE = 'api/v1/workspace-build/1/3';
// The server's --task-timeout (GET config/features): 30 minutes, longer than its default 10.
const STUCK_MS = 30 * 60 * 1000;
const SETTINGS = 'api/v1/settings/1/3';

function open(permissions = ['task_read', 'task_write']) {
  useSelectionStore.setState({
    domain: { id: 1, name: 'Ops' },
    portal: { id: 3, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'UNIVERSAL', scope: 'full' },
    branch: 'master',
    language: 'en_GB',
    permissions,
    permissionsDomainId: '1',
  });
}

const st = (phase: TaskRunnerPhase, extra: Partial<TaskRunnerState> = {}): TaskRunnerState => ({
  phase,
  lastRunDate: null,
  output: '',
  lintWarnings: [],
  ...extra,
});

const portalJson = (active: boolean) =>
  jsonResponse({ engineType: 'UNIVERSAL', supportLevel: 'FULL', scope: 'FULL', taskRunnerSettings: { active } }, 200, {
    ETag: '"v1"',
  });

function server(first: TaskRunnerState, active = true) {
  return mockFetch({
    [`GET ${BASE}/state`]: () => jsonResponse(first),
    [`GET ${SETTINGS}`]: () => portalJson(active),
    [`PUT ${BASE}/build`]: () => jsonResponse(st('VALIDATING')),
  });
}

const builds = (fetch: { mock: { calls: unknown[][] } }) =>
  fetch.mock.calls.filter(([url, init]) => String(url).endsWith('/build') && (init as RequestInit)?.method === 'PUT')
    .length;

function Sync() {
  useTaskRunnerSync();
  return null;
}

let fake: FakeRealtime;
beforeEach(() => {
  fake = setUp();
  fake.open();
  useRealtimeStore.setState({ status: 'CONNECTED' });
  clearTaskRunnerState();
});
afterEach(() => {
  tearDown();
  clearTaskRunnerState();
  vi.useRealTimers();
});

describe('the task runner re-run rule (spec 3 §4)', () => {
  it('runs the tasks once when the first state is INACTIVE while portal.json has the runner active', async () => {
    const fetch = server(st('INACTIVE'));
    open();
    renderApp(<Sync />);
    await waitFor(() => expect(builds(fetch)).toBe(1));
    await waitFor(() => expect(useTaskRunnerStore.getState().state?.phase).toBe('VALIDATING'));
    // A later INACTIVE (a state change) does not run them again.
    act(() =>
      fake.message(
        note('user-7', 'TASK_RUNNER_STATE_CHANGE', { domainId: 1, portalId: 3, userId: 7, state: st('INACTIVE') }),
      ),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(builds(fetch)).toBe(1);
  });

  it('does not run them when the runner is inactive in portal.json, or without task_write', async () => {
    const inactive = server(st('INACTIVE'), false);
    open();
    const view = renderApp(<Sync />);
    await waitFor(() => expect(inactive.mock.calls.some(([u]) => String(u).includes('settings/1/3'))).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(builds(inactive)).toBe(0);
    view.unmount();

    clearTaskRunnerState();
    const readOnly = server(st('INACTIVE'));
    open(['task_read']);
    renderApp(<Sync />);
    await waitFor(() => expect(useTaskRunnerStore.getState().state?.phase).toBe('INACTIVE'));
    await new Promise((r) => setTimeout(r, 50));
    expect(builds(readOnly)).toBe(0);
    expect(readOnly.mock.calls.some(([u]) => String(u).includes('settings/'))).toBe(false);
  });

  it('leaves a finished state alone', async () => {
    const fetch = server(st('STABLE'));
    open();
    renderApp(<Sync />);
    await waitFor(() => expect(useTaskRunnerStore.getState().state?.phase).toBe('STABLE'));
    await new Promise((r) => setTimeout(r, 50));
    expect(fetch.mock.calls).toHaveLength(1);
  });

  it("the stuck time is the server's task timeout, its default 10 minutes when the server does not say", () => {
    expect(taskRunnerStuckMs({ taskTimeoutMs: STUCK_MS, discardedWorkDays: 60 })).toBe(STUCK_MS);
    expect(taskRunnerStuckMs(undefined)).toBe(10 * 60 * 1000);
  });

  it("re-runs a RUNNING state that has not changed for the server's task timeout, once", async () => {
    // Date stays real: the session's token must not expire meanwhile.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    useSessionStore.setState({ features: { limits: { taskTimeoutMs: STUCK_MS, discardedWorkDays: 60 } } });
    const fetch = server(st('RUNNING', { output: 'step 1' }));
    open();
    renderApp(<Sync />);
    await waitFor(() => expect(useTaskRunnerStore.getState().state?.phase).toBe('RUNNING'));
    // Not after the default 10 minutes.
    await act(() => vi.advanceTimersByTimeAsync(11 * 60 * 1000));
    expect(builds(fetch)).toBe(0);
    // Progress moves the deadline on.
    await act(() => vi.advanceTimersByTimeAsync(STUCK_MS - 11 * 60 * 1000 - 1000));
    act(() =>
      fake.message(
        note('user-7', 'TASK_RUNNER_STATE_CHANGE', {
          domainId: 1,
          portalId: 3,
          userId: 7,
          state: st('RUNNING', { output: 'step 1\nstep 2' }),
        }),
      ),
    );
    await act(() => vi.advanceTimersByTimeAsync(STUCK_MS - 1000));
    expect(builds(fetch)).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await waitFor(() => expect(builds(fetch)).toBe(1));
    await act(() => vi.advanceTimersByTimeAsync(STUCK_MS * 2));
    expect(builds(fetch)).toBe(1);
  });

  it('does not re-run a run that finishes in time', async () => {
    // Date stays real: the session's token must not expire meanwhile.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const fetch = server(st('VALIDATING'));
    open();
    renderApp(<Sync />);
    await waitFor(() => expect(useTaskRunnerStore.getState().state?.phase).toBe('VALIDATING'));
    act(() =>
      fake.message(
        note('user-7', 'TASK_RUNNER_STATE_CHANGE', { domainId: 1, portalId: 3, userId: 7, state: st('STABLE') }),
      ),
    );
    await act(() => vi.advanceTimersByTimeAsync(taskRunnerStuckMs(undefined) * 2));
    expect(builds(fetch)).toBe(0);
  });
});
