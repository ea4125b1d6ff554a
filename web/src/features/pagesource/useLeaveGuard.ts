import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { leavesPage } from './model';

/**
 * Unsaved changes the user may save (`guard`): leaving the page (another path or other
 * parameters) is blocked until the leave prompt answers, and the browser asks before the page
 * unloads. Answers the blocker: the prompt proceeds or resets it.
 */
export function useLeaveGuard(guard: boolean) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => guard && leavesPage(currentLocation, nextLocation));
  useEffect(() => {
    if (!guard) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [guard]);
  return blocker;
}
