/**
 * When background polling stops (issue 8 item 0): every interval, poller and refetchInterval
 * of the app runs only while the session is live (selectSessionLive), and a poll whose last
 * answer was 401, 403 or 404 stops: the session is over, the right is gone or the thing polled
 * (a deleted portal) no longer exists. Polling the same answer forever helps nobody.
 */
import { ApiError } from '../api/errors';
import { selectSessionLive, useSessionStore } from './sessionStore';

/** Answers that asking again will not change: the session ended, the right is gone, the thing is gone. */
export const FINAL_STATUSES: readonly number[] = [401, 403, 404];

/** Whether an error means polling the same call again is pointless. */
export function isFinalError(error: unknown): boolean {
  return error instanceof ApiError && FINAL_STATUSES.includes(error.httpStatus);
}

/** Whether background work may run now (outside React). */
export const sessionLive = (): boolean => selectSessionLive(useSessionStore.getState());

/** Whether background work may run (a hook: re-renders when the session ends). */
export const useSessionLive = (): boolean => useSessionStore(selectSessionLive);

/**
 * A refetchInterval: every `ms` while the session is live and the query's last fetch did not
 * fail with 401, 403 or 404; otherwise no more polling. TanStack Query re-evaluates it after
 * every fetch of the query.
 */
export function pollEvery(ms: number) {
  return (query: { state: { error: unknown } }): number | false =>
    sessionLive() && !isFinalError(query.state.error) ? ms : false;
}
