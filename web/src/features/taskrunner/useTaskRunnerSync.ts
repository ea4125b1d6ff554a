/**
 * Keeps the task-runner store in line with the open portal (spec 3 §4 "Task runner", §9): the
 * state is cleared when the portal, its branch or the user's access changes, fetched 200 ms after
 * the portal opens, replaced by every TASK_RUNNER_STATE_CHANGE message of this user and portal
 * (user and portal rooms), and polled every 5000 ms while the socket is down (stopping on
 * reconnect). Nothing is fetched for limited portals or without task_read.
 *
 * The re-run rule (spec 3 §4: "When the runner is active and the phase is stuck on RUNNING or
 * VALIDATING, or is INACTIVE, the tasks are re-run to refresh"): after the first fetch of an
 * opened portal, a user with task_write whose portal.json has the runner active gets one run
 * (PUT …/build) when the phase is INACTIVE, or when it is RUNNING or VALIDATING and the state
 * does not change for the server's task timeout (taskRunnerStuckMs). At most one such run per
 * portal opening.
 */
import { useCallback, useEffect, useRef } from 'react';
import type { RoomMessage } from '../../api/realtime';
import { portalApi } from '../../api/portal';
import {
  isTaskRunnerBusy,
  isTaskRunnerState,
  TASK_RUNNER_STATE_CHANGE,
  taskRunnerApi,
  type TaskRunnerState,
} from '../../api/taskRunner';
import { toApiError } from '../../api/errors';
import { isLimitedPortal } from '../../core/menus';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import { selectLimits, useSessionStore } from '../../core/sessionStore';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showToast } from '../../core/toastService';
import { useRoomMessages, useSocketDownPolling } from '../realtime';
import {
  TASK_RUNNER_FETCH_DELAY_MS,
  TASK_RUNNER_MESSAGES as MSG,
  TASK_RUNNER_POLL_MS,
  taskRunnerStuckMs,
} from './messages';
import {
  applyAnsweredTaskRunnerState,
  clearTaskRunnerState,
  setTaskRunnerState,
  taskRunnerPortalKey,
  useTaskRunnerStore,
} from './taskRunnerStore';

const sameId = (a: unknown, b: unknown) => a != null && b != null && String(a) === String(b);

/** The open portal whose runner is followed: null without a portal, for limited ones and without task_read. */
export function useTaskRunnerTarget(): { domainId: string; portalId: string; key: string; branch: string } | null {
  const domainId = useSelectionStore((s) => s.domain?.id);
  const portal = useSelectionStore((s) => s.portal);
  const branch = useSelectionStore((s) => s.branch);
  const canRead = usePermission('task_read');
  if (domainId == null || !portal || !branch || !canRead || isLimitedPortal(portal)) return null;
  return {
    domainId: String(domainId),
    portalId: String(portal.id),
    key: taskRunnerPortalKey(domainId, portal.id),
    branch,
  };
}

/** What tells one state from the next while a run is under way (a poll repeats the same state). */
const fingerprint = (state: TaskRunnerState | null | undefined) =>
  state ? JSON.stringify([state.phase, state.lastRunDate ?? null, state.output ?? '', state.error ?? null]) : '';

/** Whether portal.json of the caller's workspace has the task runner active (false when unreadable). */
async function runnerActive(d: string, p: string): Promise<boolean> {
  try {
    const settings = await portalApi.settings(d, p);
    return settings.data?.taskRunnerSettings?.active === true;
  } catch {
    return false;
  }
}

/**
 * The re-run rule (see the file comment): `refresh(key, state)` is called with the first state
 * fetched after the portal opens; it runs the tasks at most once for that opening.
 */
function useTaskRunnerRefresh(key: string | null, current: { current: string | null }) {
  const canWrite = usePermission('task_write');
  const canWriteRef = useRef(canWrite);
  canWriteRef.current = canWrite;
  const stop = useRef<() => void>(() => {});

  // A new portal (or none): any stuck watch of the previous one ends.
  useEffect(() => {
    return () => {
      stop.current();
      stop.current = () => {};
    };
  }, [key]);

  return useCallback(
    (forKey: string, first: TaskRunnerState) => {
      if (!canWriteRef.current) return;
      const [d, p] = forKey.split('/');
      const still = () => current.current === forKey;
      const rerun = async (expected: (state: TaskRunnerState | null) => boolean) => {
        if (!still() || !(await runnerActive(d, p))) return;
        if (!still() || !canWriteRef.current || !expected(useTaskRunnerStore.getState().state)) return;
        try {
          const sent = useTaskRunnerStore.getState().state;
          const next = await taskRunnerApi.build(d, p);
          if (still() && isTaskRunnerState(next)) applyAnsweredTaskRunnerState(forKey, sent, next);
        } catch {
          // A background refresh: the state stays as it is, Run Tasks is still there.
        }
      };

      if (first.phase === 'INACTIVE') {
        void rerun((state) => state?.phase === 'INACTIVE');
        return;
      }
      if (!isTaskRunnerBusy(first.phase)) return;
      // RUNNING or VALIDATING: re-run once the state has not moved for the server's task timeout.
      const stuckMs = taskRunnerStuckMs(selectLimits(useSessionStore.getState()));
      let seen = fingerprint(first);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          finish();
          void rerun((state) => isTaskRunnerBusy(state?.phase) && fingerprint(state) === seen);
        }, stuckMs);
      };
      const unsubscribe = useTaskRunnerStore.subscribe((s) => {
        if (!s.state) return;
        if (!isTaskRunnerBusy(s.state.phase)) return finish();
        const next = fingerprint(s.state);
        if (next !== seen) {
          seen = next;
          arm();
        }
      });
      const finish = () => {
        clearTimeout(timer);
        unsubscribe();
      };
      stop.current();
      stop.current = finish;
      arm();
    },
    [current],
  );
}

export function useTaskRunnerSync(): void {
  const target = useTaskRunnerTarget();
  const me = useSessionStore((s) => s.user?.id);
  const key = target?.key ?? null;
  const branch = target?.branch ?? null;
  const current = useRef<string | null>(key);
  current.current = key;
  const refresh = useTaskRunnerRefresh(key, current);

  const fetchState = useCallback(async (toastOnFailure: boolean): Promise<TaskRunnerState | null> => {
    const forKey = current.current;
    if (!forKey) return null;
    const [d, p] = forKey.split('/');
    try {
      const state = await taskRunnerApi.state(d, p);
      if (current.current === forKey && isTaskRunnerState(state)) {
        setTaskRunnerState(forKey, state);
        return state;
      }
      return null;
    } catch (error) {
      if (!toastOnFailure || current.current !== forKey) return null;
      showToast({
        type: 'DANGER',
        title: MSG.stateFailed,
        message: toApiError(error).errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
      return null;
    }
  }, []);

  useEffect(() => {
    clearTaskRunnerState();
    if (!key) return;
    const timer = setTimeout(() => {
      void fetchState(true).then((state) => {
        if (state && current.current === key) refresh(key, state);
      });
    }, TASK_RUNNER_FETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, branch, fetchState, refresh]);

  // Cleared when the header goes away (sign-out).
  useEffect(() => () => clearTaskRunnerState(), []);

  useRoomMessages((message: RoomMessage) => {
    if (message.title !== TASK_RUNNER_STATE_CHANGE || !key) return;
    const data = message.data && typeof message.data === 'object' ? (message.data as Record<string, unknown>) : null;
    if (!data || !isTaskRunnerState(data.state)) return;
    const [d, p] = key.split('/');
    if (!sameId(data.portalId, p)) return;
    if (data.domainId != null && !sameId(data.domainId, d)) return;
    if (data.userId != null && me != null && !sameId(data.userId, me)) return;
    setTaskRunnerState(key, data.state);
  });

  useSocketDownPolling(() => void fetchState(false), TASK_RUNNER_POLL_MS, !!key);
}
