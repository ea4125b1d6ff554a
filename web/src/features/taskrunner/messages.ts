import type { TaskRunnerPhase, TaskRunnerState } from '../../api/taskRunner';
import type { ServerLimits } from '../../api/types';

/** Texts of the task runner (spec 3 §2, §4 "Task runner", §8). */
export const TASK_RUNNER_MESSAGES = {
  button: 'Task runner',
  panel: 'Task runner',
  runTasks: 'Run Tasks',
  lastRunOutput: 'Last Run Output',
  lintWarnings: 'Lint warnings',
  lastRunWas: 'Last run was',
  errorTitle: 'A Task Runner Error Occurred',
  outputTitle: 'Last Run Output',
  close: 'Close',
  copy: 'Copy',
  copied: 'Output copied to clipboard',
  copyFailed: 'Failed to copy the output to the clipboard',
  noOutput: 'There is no output of the last run',
  noLintWarnings: 'No lint warnings',
  lintLine: 'Line',
  learnMore: 'Learn more',
  loading: 'Loading task runner state',
  // §8
  buildFailed: 'Failed to start the task running process for workspace',
  lintFailed: 'Failed to start Docker lint checking process',
  clearFailed: 'Failed to clear out task runner output folder',
  stateFailed: 'Failed to retrieve current task runner state',
  outputFailed: 'Failed to retrieve last run output',
  templatesFailed: 'Failed to load available Dockerfile templates',
  buildError: 'Something went wrong while trying to build your portal',
  openOutputFailedTitle: 'FAILED to open the last run output',
  openOutputFailedMessage: 'An unknown error occurred',
} as const;

/** The phase messages: a title and an optional second line. */
export const PHASE_MESSAGES: Record<TaskRunnerPhase, { title: string; detail?: string }> = {
  INACTIVE: { title: 'Portal Task Runner functionality is inactive' },
  VALIDATING: { title: 'Validating workspace tasks...' },
  RUNNING: { title: 'Running workspace tasks...' },
  UNINITIATED: { title: 'Portal Task Runner functionality has not run yet' },
  STALE: {
    title: 'Your portal workspace contains changes',
    detail: 'Please re-run the tasks to ensure you stay up to date',
  },
  STABLE: { title: 'Your portal workspace tasks ran successfully!' },
  UNSTABLE: { title: 'Oops...', detail: 'Something went wrong while your portal workspace tasks were running' },
};

/** The message of a state: its error (title or 'A Task Runner Error Occurred', plus the message) or its phase's. */
export function stateMessage(state: TaskRunnerState): { title: string; detail?: string } {
  if (state.error) {
    return {
      title: state.error.errorTitle || TASK_RUNNER_MESSAGES.errorTitle,
      detail: state.error.errorMessage || undefined,
    };
  }
  return PHASE_MESSAGES[state.phase];
}

/** Run Tasks and the output buttons show only outside INACTIVE, VALIDATING and RUNNING. */
export const showsActions = (phase: TaskRunnerPhase | null | undefined): boolean =>
  !!phase && phase !== 'INACTIVE' && phase !== 'VALIDATING' && phase !== 'RUNNING';

/** Spec 3 §9: state polling while the socket is down (the 5000 ms reading). */
export const TASK_RUNNER_POLL_MS = 5000;
/** Spec 3 §9: the state is fetched this long after the portal (its settings) loads. */
export const TASK_RUNNER_FETCH_DELAY_MS = 200;
/** Spec 3 §9: the panel's width. */
export const TASK_RUNNER_PANEL_WIDTH = 634;
/** The server's default --task-timeout, for a server that does not say its own. */
const DEFAULT_TASK_TIMEOUT_MS = 10 * 60 * 1000;
/**
 * Spec 3 §4 "Task runner": a RUNNING or VALIDATING state that has not changed for this long is
 * taken as stuck, and the tasks are re-run once. It is the server's --task-timeout (the limits
 * of GET config/features): a run's wall time is capped at it, so a live run always changes
 * state before this.
 */
export const taskRunnerStuckMs = (limits: ServerLimits | undefined): number =>
  limits?.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
