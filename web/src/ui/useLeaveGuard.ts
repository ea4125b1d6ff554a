import { useEffect } from 'react';
import { useBlocker, type Blocker, type Location } from 'react-router';

/** A navigation to another path leaves the screen (the default of useLeaveGuard). */
export const pathChanged = (from: Location, to: Location) => from.pathname !== to.pathname;

/**
 * Unsaved changes the user may save (`guard`): the browser asks before the page unloads, and a
 * navigation that leaves the screen (`leaves`) is blocked until the screen's prompt proceeds or
 * resets the answered blocker. One rule for every editor (designer, source mode, translations,
 * whitelist).
 */
export function useLeaveGuard(
  guard: boolean,
  leaves: (from: Location, to: Location) => boolean = pathChanged,
): Blocker {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => guard && leaves(currentLocation, nextLocation));
  useUnloadWarning(guard);
  return blocker;
}

/** While `guard` holds, the browser asks before the page unloads (reload, close, another site). */
export function useUnloadWarning(guard: boolean) {
  useEffect(() => {
    if (!guard) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [guard]);
}
