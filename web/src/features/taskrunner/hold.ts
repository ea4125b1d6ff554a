/**
 * The navigation hold (spec 3 §4 "Opening a portal", "Branch switching", "Task runner"; logout):
 * while the open portal's tasks validate or run, a portal switch, a branch switch or a logout
 * waits behind the overlay 'Waiting on tasks to finish validating and running...' until the
 * phase leaves VALIDATING/RUNNING (a state message, a poll, or the state being cleared). The
 * overlay that was up before is put back afterwards. While holding, the state is re-read every
 * 5 s as well, so a lost socket message cannot hold navigation forever.
 */
import { isTaskRunnerBusy, isTaskRunnerState, taskRunnerApi } from '../../api/taskRunner';
import { overlay, useOverlayStore } from '../../app/overlay/overlayStore';
import { setTaskRunnerState, useTaskRunnerStore } from './taskRunnerStore';

/** While holding, the state is also re-read this often (a lost message must not hold forever). */
export const HOLD_RECHECK_MS = 5000;

export const WAITING_ON_TASKS_MESSAGE = 'Waiting on tasks to finish validating and running...';

/** Resolves at once when no tasks run; otherwise once they have finished. */
export async function waitForTasks(): Promise<void> {
  if (!isTaskRunnerBusy(useTaskRunnerStore.getState().state?.phase)) return;
  const before = useOverlayStore.getState();
  overlay.show(WAITING_ON_TASKS_MESSAGE);
  await new Promise<void>((resolve) => {
    const recheck = setInterval(() => {
      const { portalKey } = useTaskRunnerStore.getState();
      if (!portalKey) return;
      const [d, p] = portalKey.split('/');
      taskRunnerApi.state(d, p).then(
        (state) => {
          if (useTaskRunnerStore.getState().portalKey === portalKey && isTaskRunnerState(state))
            setTaskRunnerState(portalKey, state);
        },
        () => undefined,
      );
    }, HOLD_RECHECK_MS);
    const unsubscribe = useTaskRunnerStore.subscribe((s) => {
      if (isTaskRunnerBusy(s.state?.phase)) return;
      clearInterval(recheck);
      unsubscribe();
      resolve();
    });
  });
  if (before.visible)
    overlay.show({ mode: before.mode, message: before.message, percent: before.percent, content: before.content });
  else overlay.hide();
}
