/**
 * The navigation hold (spec 3 §4 "Opening a portal", "Branch switching", "Task runner"; logout):
 * while the open portal's tasks validate or run, a portal switch, a branch switch or a logout
 * waits behind the overlay 'Waiting on tasks to finish validating and running...' until the
 * phase leaves VALIDATING/RUNNING (a state message, a poll, or the state being cleared). The
 * overlay that was up before is put back afterwards. While holding, the state is re-read every
 * 5 s as well, so a lost socket message cannot hold navigation forever.
 */
import { isTaskRunnerBusy, isTaskRunnerState, taskRunnerApi } from '../../api/taskRunner';
import { overlay, useOverlayStore } from '../../core/overlayStore';
import { setTaskRunnerState, useTaskRunnerStore } from './taskRunnerStore';

/** While holding, the state is also re-read this often (a lost message must not hold forever). */
export const HOLD_RECHECK_MS = 5000;

export const WAITING_ON_TASKS_MESSAGE = 'Waiting on tasks to finish validating and running...';

/** Once the store stops following the portal (cleared: the header went away on logout), its state is read this often. */
export const HOLD_UNFOLLOWED_RECHECK_MS = 1000;

/**
 * Resolves at once when no tasks run; otherwise once they have finished. The wait is for the
 * portal whose tasks were running when it began: when the store is cleared meanwhile (a logout
 * unmounts the header, which clears it), that portal's state is read from the server instead
 * (every second) until it leaves VALIDATING/RUNNING, or cannot be read.
 */
export async function waitForTasks(): Promise<void> {
  const { state, portalKey } = useTaskRunnerStore.getState();
  if (!isTaskRunnerBusy(state?.phase) || !portalKey) return;
  const [d, p] = portalKey.split('/');
  const before = useOverlayStore.getState();
  overlay.show(WAITING_ON_TASKS_MESSAGE);
  await new Promise<void>((resolve) => {
    let done = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    let unsubscribe = () => {};
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(timer);
      unsubscribe();
      resolve();
    };
    const read = () =>
      taskRunnerApi.state(d, p).then(
        (next) => {
          if (done || !isTaskRunnerState(next)) return;
          if (useTaskRunnerStore.getState().portalKey === portalKey) setTaskRunnerState(portalKey, next);
          if (!isTaskRunnerBusy(next.phase)) finish();
        },
        () => {
          // Unreadable (portal closed, gone or no longer allowed): nothing left to wait for,
          // unless the store still follows the portal and says otherwise.
          if (useTaskRunnerStore.getState().portalKey !== portalKey) finish();
        },
      );
    const every = (ms: number) => {
      clearInterval(timer);
      timer = setInterval(() => void read(), ms);
    };
    every(HOLD_RECHECK_MS);
    let following = true;
    unsubscribe = useTaskRunnerStore.subscribe((s) => {
      if (s.portalKey === portalKey && s.state) {
        if (!isTaskRunnerBusy(s.state.phase)) finish();
        return;
      }
      if (!following) return;
      following = false; // cleared or another portal: read ours from the server
      every(HOLD_UNFOLLOWED_RECHECK_MS);
      void read();
    });
  });
  if (before.visible)
    overlay.show({ mode: before.mode, message: before.message, percent: before.percent, content: before.content });
  else overlay.hide();
}
