/**
 * The task runner (workspace build) of a portal (issue 13; spec 3 §3 "Task runner state", §7
 * "Workspace build"): `workspace-build/{domainId}/{portalId}/…` — build (PUT, answers the state),
 * lint, clear, state, output (text/plain), templates, dockerfile/{name}. Permissions: task_read to
 * view, task_write to run and clear.
 */
import { api } from './client';
import { portalKeys, type Id } from './portal';
import type * as gen from './types.gen';

export const TASK_RUNNER_PHASES = [
  'UNINITIATED',
  'INACTIVE',
  'VALIDATING',
  'RUNNING',
  'STABLE',
  'UNSTABLE',
  'STALE',
] as const;
export type TaskRunnerPhase = (typeof TASK_RUNNER_PHASES)[number];

export type LintWarning = gen.TaskrunnerLintWarning;

export type TaskRunnerError = gen.TaskrunnerRunError;

export interface TaskRunnerState {
  phase: TaskRunnerPhase;
  lastRunDate?: string | number | null;
  output?: string | null;
  lintWarnings?: LintWarning[] | null;
  error?: TaskRunnerError | null;
}

/** The realtime title of a state change (user and portal rooms; data {domainId, portalId, userId, state}). */
export const TASK_RUNNER_STATE_CHANGE = 'TASK_RUNNER_STATE_CHANGE';

/** Whether the runner is validating or running (navigation is held meanwhile). */
export const isTaskRunnerBusy = (phase: TaskRunnerPhase | null | undefined): boolean =>
  phase === 'VALIDATING' || phase === 'RUNNING';

/** Whether a value is a task-runner state (a socket message's payload is not trusted). */
export function isTaskRunnerState(value: unknown): value is TaskRunnerState {
  if (!value || typeof value !== 'object') return false;
  const phase = (value as { phase?: unknown }).phase;
  return typeof phase === 'string' && (TASK_RUNNER_PHASES as readonly string[]).includes(phase);
}

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `workspace-build/${seg(d)}/${seg(p)}`;

export const taskRunnerApi = {
  /** Starts a run; answers the new state. */
  build: (d: Id, p: Id) => api.put<TaskRunnerState>(`${base(d, p)}/build`),
  lint: (d: Id, p: Id) => api.get<LintWarning[]>(`${base(d, p)}/lint`),
  clear: (d: Id, p: Id) => api.post<void>(`${base(d, p)}/clear`),
  state: (d: Id, p: Id) => api.get<TaskRunnerState>(`${base(d, p)}/state`, { cache: 'no-store' }),
  output: (d: Id, p: Id) => api.get<string>(`${base(d, p)}/output`, { responseType: 'text', cache: 'no-store' }),
  templates: (d: Id, p: Id) => api.get<unknown>(`${base(d, p)}/templates`),
  dockerfile: (d: Id, p: Id, name: string) =>
    api.get<string>(`${base(d, p)}/dockerfile/${seg(name)}`, { responseType: 'text' }),
};

/** Query keys, under the portal's workspace prefix (refreshed with the workspace). */
export const taskRunnerKeys = {
  all: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'task-runner'] as const,
  state: (d: Id, p: Id) => [...taskRunnerKeys.all(d, p), 'state'] as const,
  lint: (d: Id, p: Id) => [...taskRunnerKeys.all(d, p), 'lint'] as const,
  output: (d: Id, p: Id) => [...taskRunnerKeys.all(d, p), 'output'] as const,
  templates: (d: Id, p: Id) => [...taskRunnerKeys.all(d, p), 'templates'] as const,
  dockerfile: (d: Id, p: Id, name: string) => [...taskRunnerKeys.all(d, p), 'dockerfile', name] as const,
};
