import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskRunnerPhase, TaskRunnerState } from '../../api/taskRunner';
import { useSelectionStore, type SelectedPortal } from '../../core/selectionStore';
import { ToastStack } from '../../ui/ToastStack';
import { errorResponse, jsonResponse, mockFetch, textResponse } from '../../test/helpers';
import { useRealtimeStore } from '../realtime/realtimeStore';
import { FakeRealtime, note, renderApp, setUp, tearDown } from '../realtime/testing';
import { PHASE_MESSAGES, TASK_RUNNER_MESSAGES as MSG } from './messages';
import { phaseIcon } from './phaseIcon';
import { TaskRunnerMenu } from './TaskRunnerMenu';
import { clearTaskRunnerState, useTaskRunnerStore } from './taskRunnerStore';

const BASE = 'api/v1/workspace-build/1/3';
const full: SelectedPortal = {
  id: 3,
  name: 'Crew Portal',
  supportLevel: 'FULL',
  engineType: 'UNIVERSAL',
  scope: 'full',
};

function open(portal: SelectedPortal = full, permissions = ['task_read', 'task_write']) {
  useSelectionStore.setState({
    domain: { id: 1, name: 'Ops' },
    portal,
    branch: 'master',
    language: 'en_GB',
    permissions,
    permissionsDomainId: '1',
  });
}

const st = (phase: TaskRunnerPhase, extra: Partial<TaskRunnerState> = {}): TaskRunnerState => ({
  phase,
  lastRunDate: '2026-11-20T10:15:00',
  output: '',
  lintWarnings: [],
  ...extra,
});

const stateChange = (state: TaskRunnerState, extra: Record<string, unknown> = {}, room = 'user-7') =>
  note(room, 'TASK_RUNNER_STATE_CHANGE', { domainId: 1, portalId: 3, userId: 7, state, ...extra });

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

const render = () =>
  renderApp(
    <>
      <TaskRunnerMenu />
      <ToastStack />
    </>,
  );
// The open panel is modal: the header button is aria-hidden meanwhile.
const button = () => screen.getByRole('button', { name: MSG.button, hidden: true });
const panel = () => screen.getByRole('dialog', { name: MSG.panel });

async function openPanel(phase: TaskRunnerPhase, extra: Partial<TaskRunnerState> = {}, permissions?: string[]) {
  const fetch = mockFetch({ [`GET ${BASE}/state`]: () => jsonResponse(st(phase, extra)) });
  open(full, permissions);
  render();
  await waitFor(() => expect(button()).toHaveAttribute('data-phase', phase));
  fireEvent.click(button());
  return fetch;
}

describe('TaskRunnerMenu', () => {
  it.each([
    ['INACTIVE', 'cross-out'],
    ['UNINITIATED', 'info'],
    ['VALIDATING', 'spinner'],
    ['RUNNING', 'spinner'],
    ['STABLE', 'check'],
    ['UNSTABLE', 'cross'],
    ['STALE', 'warning'],
  ] as const)('%s: its icon (%s) and its messages', async (phase, icon) => {
    await openPanel(phase);
    expect(button()).toHaveAttribute('data-icon', icon);
    expect(phaseIcon(st(phase)).name).toBe(icon);
    const { title, detail } = PHASE_MESSAGES[phase];
    expect(within(panel()).getByText(title)).toBeInTheDocument();
    if (detail) expect(within(panel()).getByText(detail)).toBeInTheDocument();
    expect(within(panel()).getByText(/^Last run was 11\/20\/2026 10:15$/)).toBeInTheDocument();
  });

  it('shows the exact spec texts of the phases', () => {
    expect(PHASE_MESSAGES.INACTIVE.title).toBe('Portal Task Runner functionality is inactive');
    expect(PHASE_MESSAGES.VALIDATING.title).toBe('Validating workspace tasks...');
    expect(PHASE_MESSAGES.RUNNING.title).toBe('Running workspace tasks...');
    expect(PHASE_MESSAGES.UNINITIATED.title).toBe('Portal Task Runner functionality has not run yet');
    expect(PHASE_MESSAGES.STALE).toEqual({
      title: 'Your portal workspace contains changes',
      detail: 'Please re-run the tasks to ensure you stay up to date',
    });
    expect(PHASE_MESSAGES.STABLE.title).toBe('Your portal workspace tasks ran successfully!');
    expect(PHASE_MESSAGES.UNSTABLE).toEqual({
      title: 'Oops...',
      detail: 'Something went wrong while your portal workspace tasks were running',
    });
  });

  it('shows the error title (or the default) and message of an error state', async () => {
    await openPanel('UNSTABLE', { error: { errorTitle: '', errorMessage: 'Dockerfile is missing' } });
    expect(within(panel()).getByText('A Task Runner Error Occurred')).toBeInTheDocument();
    expect(within(panel()).getByText('Dockerfile is missing')).toBeInTheDocument();
    expect(button()).toHaveAttribute('data-icon', 'error');
  });

  it.each(['INACTIVE', 'VALIDATING', 'RUNNING'] as const)('%s: no Run Tasks nor output buttons', async (phase) => {
    await openPanel(phase);
    for (const name of [MSG.runTasks, MSG.lastRunOutput, MSG.lintWarnings])
      expect(within(panel()).queryByRole('button', { name })).toBeNull();
  });

  it.each(['UNINITIATED', 'STABLE', 'UNSTABLE', 'STALE'] as const)(
    '%s: Run Tasks and the output buttons',
    async (phase) => {
      await openPanel(phase);
      for (const name of [MSG.runTasks, MSG.lastRunOutput, MSG.lintWarnings])
        expect(within(panel()).getByRole('button', { name })).toBeInTheDocument();
    },
  );

  it('hides Run Tasks without task_write', async () => {
    await openPanel('STABLE', {}, ['task_read']);
    expect(within(panel()).queryByRole('button', { name: MSG.runTasks })).toBeNull();
    expect(within(panel()).getByRole('button', { name: MSG.lastRunOutput })).toBeInTheDocument();
  });

  it('is hidden without a portal, for limited portals and without task_read', async () => {
    const fetch = mockFetch({ [`GET ${BASE}/state`]: () => jsonResponse(st('STABLE')) });
    const { unmount } = render();
    expect(screen.queryByRole('button', { name: MSG.button })).toBeNull();
    unmount();

    open({ ...full, supportLevel: 'LIMITED' });
    const second = render();
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('button', { name: MSG.button })).toBeNull();
    second.unmount();

    open(full, ['page_read']);
    render();
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('button', { name: MSG.button })).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('Run Tasks starts a run and shows the state it answers', async () => {
    const fetch = await openPanel('STALE');
    fetch.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) =>
      String(input) === `${BASE}/build` && init.method === 'PUT'
        ? jsonResponse(st('VALIDATING'))
        : jsonResponse({}, 404),
    );
    fireEvent.click(within(panel()).getByRole('button', { name: MSG.runTasks }));
    expect(await within(panel()).findByText('Validating workspace tasks...')).toBeInTheDocument();
    expect(button()).toHaveAttribute('data-phase', 'VALIDATING');
    expect(within(panel()).queryByRole('button', { name: MSG.runTasks })).toBeNull();
  });

  it('a failed run shows the danger toast', async () => {
    const fetch = await openPanel('STABLE');
    fetch.mockImplementation(async () => errorResponse(500, { errorMessage: 'No sandbox' }));
    fireEvent.click(within(panel()).getByRole('button', { name: MSG.runTasks }));
    expect(await screen.findByText('Failed to start the task running process for workspace')).toBeInTheDocument();
    expect(screen.getByText('No sandbox')).toBeInTheDocument();
  });

  it('Last Run Output opens the 80vw dialog; Copy copies and says so; Close closes', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const fetch = await openPanel('STABLE');
    fetch.mockImplementation(async (input: RequestInfo | URL) =>
      String(input) === `${BASE}/output` ? textResponse('step 1\nstep 2 done') : jsonResponse({}, 404),
    );
    fireEvent.click(within(panel()).getByRole('button', { name: MSG.lastRunOutput }));
    const dialog = await screen.findByRole('dialog', { name: 'Last Run Output' });
    expect(await within(dialog).findByText(/step 2 done/)).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('step 1\nstep 2 done'));
    expect(await screen.findByText('Output copied to clipboard')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Last Run Output' })).toBeNull());
  });

  it('a failed output read shows the spec toast', async () => {
    const fetch = await openPanel('UNSTABLE');
    fetch.mockImplementation(async () => errorResponse(500));
    fireEvent.click(within(panel()).getByRole('button', { name: MSG.lastRunOutput }));
    expect(await screen.findByText('FAILED to open the last run output')).toBeInTheDocument();
    expect(screen.getByText('An unknown error occurred')).toBeInTheDocument();
  });

  it('Lint warnings lists the warnings', async () => {
    const fetch = await openPanel('STABLE');
    fetch.mockImplementation(async (input: RequestInfo | URL) =>
      String(input) === `${BASE}/lint`
        ? jsonResponse([
            {
              rule: 'JSONArgsRecommended',
              message: 'JSON arguments recommended for CMD',
              line: 4,
              url: 'https://docs.docker.com/go/dockerfile/rule/json-args-recommended/',
            },
          ])
        : jsonResponse({}, 404),
    );
    fireEvent.click(within(panel()).getByRole('button', { name: MSG.lintWarnings }));
    const dialog = await screen.findByRole('dialog', { name: 'Lint warnings' });
    const list = await within(dialog).findByRole('list', { name: 'Lint warnings' });
    expect(within(list).getByText('JSONArgsRecommended: JSON arguments recommended for CMD')).toBeInTheDocument();
    expect(within(list).getByText(/Line 4/)).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Learn more' })).toHaveAttribute(
      'href',
      'https://docs.docker.com/go/dockerfile/rule/json-args-recommended/',
    );
  });

  it('a failed state read shows the danger toast', async () => {
    mockFetch({ [`GET ${BASE}/state`]: () => errorResponse(500, { errorMessage: 'down' }) });
    open();
    render();
    expect(await screen.findByText('Failed to retrieve current task runner state')).toBeInTheDocument();
  });

  it('follows TASK_RUNNER_STATE_CHANGE messages of this user and portal', async () => {
    await openPanel('STABLE');
    act(() => fake.message(stateChange(st('RUNNING'))));
    expect(button()).toHaveAttribute('data-phase', 'RUNNING');
    expect(within(panel()).getByText('Running workspace tasks...')).toBeInTheDocument();
    // Another user's run, another portal and a malformed state are ignored.
    act(() => fake.message(stateChange(st('UNSTABLE'), { userId: 9 }, 'portal-3')));
    act(() => fake.message(stateChange(st('UNSTABLE'), { portalId: 4 })));
    act(() => fake.message(stateChange({ phase: 'NOPE' } as unknown as TaskRunnerState)));
    expect(button()).toHaveAttribute('data-phase', 'RUNNING');
    act(() => fake.message(stateChange(st('STABLE'), {}, 'portal-3')));
    expect(button()).toHaveAttribute('data-phase', 'STABLE');
  });

  it('fetches ~200 ms after the portal opens and clears the state when it closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetch = mockFetch({ [`GET ${BASE}/state`]: () => jsonResponse(st('STABLE')) });
    open();
    render();
    await act(async () => vi.advanceTimersByTime(150));
    expect(fetch).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(60));
    await waitFor(() => expect(useTaskRunnerStore.getState().state?.phase).toBe('STABLE'));
    act(() => useSelectionStore.setState({ portal: null, branch: null }));
    expect(useTaskRunnerStore.getState().state).toBeNull();
    expect(screen.queryByRole('button', { name: MSG.button })).toBeNull();
  });

  it('polls every 5000 ms while the socket is down and stops on reconnect', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let phase: TaskRunnerPhase = 'RUNNING';
    const fetch = mockFetch({ [`GET ${BASE}/state`]: () => jsonResponse(st(phase)) });
    open();
    render();
    await act(async () => vi.advanceTimersByTime(250));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    act(() => {
      fake.drop();
      useRealtimeStore.setState({ status: 'DISCONNECTED' });
    });
    await act(async () => vi.advanceTimersByTime(4900));
    expect(fetch).toHaveBeenCalledTimes(1);
    phase = 'STABLE';
    await act(async () => vi.advanceTimersByTime(100));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(useTaskRunnerStore.getState().state?.phase).toBe('STABLE'));
    await act(async () => vi.advanceTimersByTime(5000));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3));
    act(() => {
      fake.open();
      useRealtimeStore.setState({ status: 'CONNECTED' });
    });
    await act(async () => vi.advanceTimersByTime(20_000));
    expect(fetch).toHaveBeenCalledTimes(3);
  });
});
