import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * Unsaved changes of a user who may save them: leaving the route asks first (`confirmLeave`
 * answers whether to go on), and the browser asks before the page unloads.
 */
export function useLeaveGuard(dirty: boolean, canWrite: boolean, confirmLeave: () => Promise<boolean>) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && canWrite && currentLocation.pathname !== nextLocation.pathname,
  );
  const blockerState = blocker.state;
  useEffect(() => {
    if (blockerState !== 'blocked') return;
    let active = true;
    void confirmLeave().then((go) => {
      if (!active) return;
      if (go) blocker.proceed?.();
      else blocker.reset?.();
    });
    return () => {
      active = false;
    };
  }, [blockerState]);

  useEffect(() => {
    if (!dirty || !canWrite) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, canWrite]);
}
