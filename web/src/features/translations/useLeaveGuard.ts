import { useEffect } from 'react';
import { useLeaveGuard as useGuard } from '../../ui/useLeaveGuard';

/**
 * Unsaved changes of a user who may save them: leaving the route asks first (`confirmLeave`
 * answers whether to go on), and the browser asks before the page unloads.
 */
export function useLeaveGuard(dirty: boolean, canWrite: boolean, confirmLeave: () => Promise<boolean>) {
  const blocker = useGuard(dirty && canWrite);
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
}
