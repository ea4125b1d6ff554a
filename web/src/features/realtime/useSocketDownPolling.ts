import { useEffect, useRef } from 'react';
import { useRealtimeStore } from './realtimeStore';

/** Polling period while the socket is down (spec 3 §9, the 10 s reading). */
export const SOCKET_DOWN_POLL_MS = 10_000;

/**
 * Runs `fn` every `intervalMs` while the realtime status is not CONNECTED (and `enabled`);
 * stops as soon as the socket is connected again (spec 3 §4 task runner, §9 local-commit
 * polling). The latest `fn` is called; the first run is one interval after the socket went down.
 */
export function useSocketDownPolling(fn: () => void, intervalMs = SOCKET_DOWN_POLL_MS, enabled = true): void {
  const down = useRealtimeStore((s) => s.status !== 'CONNECTED');
  const ref = useRef(fn);
  useEffect(() => {
    ref.current = fn;
  });
  useEffect(() => {
    if (!down || !enabled) return;
    const timer = setInterval(() => ref.current(), intervalMs);
    return () => clearInterval(timer);
  }, [down, enabled, intervalMs]);
}
