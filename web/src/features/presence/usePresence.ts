import { useCallback, useEffect, useRef } from 'react';
import { workspacePath } from '../../api/merge';
import type { Id } from '../../api/portal';
import { PRESENCE_HEARTBEAT_MS, presenceApi, type PresenceState } from '../../api/presence';

const ignore = () => undefined;

/**
 * Says that the caller has `path` open (issue 21 item 5; advisory, never a lock): PUT 'viewing'
 * when the editor opens, 'editing' at once on the author's first change (`markEditing`, called
 * from the editor's onChange: only the first call sends), again every 20 s while open, and
 * DELETE when it closes or the page goes away (`pagehide`). A null path sends nothing. Failures
 * are ignored: presence only informs.
 */
export function usePresence(domain: Id, portal: Id, path: string | null | undefined) {
  const key = path ? workspacePath(path) : null;
  const state = useRef<PresenceState>('viewing');
  // Calls go out in order, so a DELETE never overtakes the PUT before it.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const send = useCallback((call: () => Promise<unknown>) => {
    queue.current = queue.current.then(call).catch(ignore);
  }, []);

  useEffect(() => {
    if (!key) return;
    state.current = 'viewing';
    const put = () => send(() => presenceApi.put(domain, portal, key, state.current));
    put();
    const timer = window.setInterval(put, PRESENCE_HEARTBEAT_MS);
    // Leaving the page: sent at once (keepalive), it must not wait behind the queue.
    const onHide = () => void presenceApi.leave(domain, portal, key, true).catch(ignore);
    // Back from the browser's page cache: open again.
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) put();
    };
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
      send(() => presenceApi.leave(domain, portal, key));
    };
  }, [domain, portal, key, send]);

  const markEditing = useCallback(() => {
    if (!key || state.current === 'editing') return;
    state.current = 'editing';
    send(() => presenceApi.put(domain, portal, key, 'editing'));
  }, [domain, portal, key, send]);

  return { markEditing };
}
