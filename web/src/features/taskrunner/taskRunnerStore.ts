/**
 * The task runner's state of the open portal (spec 3 §4 "Task runner"): fed by TaskRunnerSync
 * (first fetch ~200 ms after the portal opens, TASK_RUNNER_STATE_CHANGE messages, polling while
 * the socket is down) and by Run Tasks; cleared when the portal closes or its workspace changes.
 * Kept free of React components and MUI so the selection chain and logout can import it cheaply.
 */
import { create } from 'zustand';
import { isTaskRunnerBusy, type TaskRunnerPhase, type TaskRunnerState } from '../../api/taskRunner';

interface TaskRunnerStoreState {
  /** 'domainId/portalId' of the state, null when none is held. */
  portalKey: string | null;
  state: TaskRunnerState | null;
}

export const useTaskRunnerStore = create<TaskRunnerStoreState>(() => ({ portalKey: null, state: null }));

export const taskRunnerPortalKey = (domainId: string | number, portalId: string | number) =>
  `${String(domainId)}/${String(portalId)}`;

export function setTaskRunnerState(portalKey: string, state: TaskRunnerState): void {
  useTaskRunnerStore.setState({ portalKey, state });
}

/**
 * Applies the state a request answered (PUT …/build) unless a state message of the same portal
 * arrived since the request was sent (`sent`: the store's state then): the answer was taken
 * when the run started (VALIDATING), and the RUNNING or final state sent over the socket while
 * the answer travelled is newer — it must not be put back to VALIDATING.
 */
export function applyAnsweredTaskRunnerState(
  portalKey: string,
  sent: TaskRunnerState | null,
  state: TaskRunnerState,
): void {
  const now = useTaskRunnerStore.getState();
  if (now.portalKey === portalKey && now.state !== sent) return;
  useTaskRunnerStore.setState({ portalKey, state });
}

export function clearTaskRunnerState(): void {
  useTaskRunnerStore.setState({ portalKey: null, state: null });
}

export const currentTaskRunnerPhase = (): TaskRunnerPhase | null => useTaskRunnerStore.getState().state?.phase ?? null;

/** The phase of the open portal's runner (null before the first fetch). */
export const useTaskRunnerPhase = (): TaskRunnerPhase | null => useTaskRunnerStore((s) => s.state?.phase ?? null);

/** Whether the open portal's tasks are validating or running. */
export const useTaskRunnerBusy = (): boolean => useTaskRunnerStore((s) => isTaskRunnerBusy(s.state?.phase));
