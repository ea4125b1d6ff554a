import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { clearPortalError, usePortalErrorStore } from '../../core/portalError';
import { clearGlobalError, useWorkspaceErrorStore } from './workspaceError';

/**
 * A global error belongs to the URL that failed: leaving it (Back, the address bar, a link)
 * takes the error screen away so the new route shows alone and runs its own checks. Only a
 * change of location clears: an error raised for the URL being entered stays.
 */
export function useClearErrorsOnLeave(): void {
  const { pathname, search } = useLocation();
  useEffect(() => {
    const here = `${pathname}${search}`;
    const global = useWorkspaceErrorStore.getState().error;
    if (global && global.href !== here) clearGlobalError();
    const portal = usePortalErrorStore.getState().error;
    if (portal && portal.href !== here) clearPortalError();
  }, [pathname, search]);
}
