/**
 * Keeps the task-runner store in line with the open portal (spec 3 §4 "Task runner", §9): the
 * state is cleared when the portal, its branch or the user's access changes, fetched 200 ms after
 * the portal opens, replaced by every TASK_RUNNER_STATE_CHANGE message of this user and portal
 * (user and portal rooms), and polled every 5000 ms while the socket is down (stopping on
 * reconnect). Nothing is fetched for limited portals or without task_read.
 */
import { useCallback, useEffect, useRef } from 'react';
import type { RoomMessage } from '../../api/realtime';
import { isTaskRunnerState, TASK_RUNNER_STATE_CHANGE, taskRunnerApi } from '../../api/taskRunner';
import { toApiError } from '../../api/errors';
import { isLimitedPortal } from '../../app/nav/menus';
import { usePermission } from '../../app/permissions/usePermission';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { useSessionStore } from '../../app/session/sessionStore';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showToast } from '../../app/toasts/toastService';
import { useRoomMessages } from '../realtime/realtimeStore';
import { useSocketDownPolling } from '../realtime/useSocketDownPolling';
import { TASK_RUNNER_FETCH_DELAY_MS, TASK_RUNNER_MESSAGES as MSG, TASK_RUNNER_POLL_MS } from './messages';
import { clearTaskRunnerState, setTaskRunnerState, taskRunnerPortalKey } from './taskRunnerStore';

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

export function useTaskRunnerSync(): void {
  const target = useTaskRunnerTarget();
  const me = useSessionStore((s) => s.user?.id);
  const key = target?.key ?? null;
  const branch = target?.branch ?? null;
  const current = useRef<string | null>(key);
  current.current = key;

  const fetchState = useCallback(async (toastOnFailure: boolean) => {
    const forKey = current.current;
    if (!forKey) return;
    const [d, p] = forKey.split('/');
    try {
      const state = await taskRunnerApi.state(d, p);
      if (current.current === forKey && isTaskRunnerState(state)) setTaskRunnerState(forKey, state);
    } catch (error) {
      if (!toastOnFailure || current.current !== forKey) return;
      showToast({
        type: 'DANGER',
        title: MSG.stateFailed,
        message: toApiError(error).errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
    }
  }, []);

  useEffect(() => {
    clearTaskRunnerState();
    if (!key) return;
    const timer = setTimeout(() => void fetchState(true), TASK_RUNNER_FETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, branch, fetchState]);

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
