import { create } from 'zustand';
import type { ApiError } from '../api/errors';
import { offersReset } from '../api/portal';

/**
 * Global errors of the portal half of the selection chain (spec 1 §4.2). They replace the
 * workspace with the portal error screen (app/errors/PortalErrorHost): PORTAL_OPENING_FAILED
 * offers Retry and Cancel, plus Reset for the git and branch codes (offersReset);
 * PORTALS_LOADING_FAILED Retry and Continue; BRANCH_LOADING_FAILED and SITEMAP_LOADING_FAILED
 * Retry and Cancel.
 */
export type PortalErrorType =
  'PORTALS_LOADING_FAILED' | 'PORTAL_OPENING_FAILED' | 'BRANCH_LOADING_FAILED' | 'SITEMAP_LOADING_FAILED';

export interface PortalGlobalError {
  type: PortalErrorType;
  title: string;
  message: string;
  /** The URL that failed (Retry goes there again). */
  href: string;
  error: ApiError | null;
  domainId: string;
  portalId: string;
  /** The branch the open was for (Reset puts the workspace back on it). */
  branch: string | null;
  /** The language of the failed stage (SITEMAP_LOADING_FAILED). */
  language?: string | null;
}

export const usePortalErrorStore = create<{ error: PortalGlobalError | null }>(() => ({ error: null }));

export function raisePortalError(error: PortalGlobalError): void {
  usePortalErrorStore.setState({ error });
}

export function clearPortalError(): void {
  if (usePortalErrorStore.getState().error) usePortalErrorStore.setState({ error: null });
}

export type PortalErrorAction = 'reset' | 'retry' | 'continue' | 'cancel';

/** The actions a portal error offers (spec 1 §4.2). */
export function portalErrorActions(error: Pick<PortalGlobalError, 'type' | 'error'>): PortalErrorAction[] {
  switch (error.type) {
    case 'PORTALS_LOADING_FAILED':
      return ['retry', 'continue'];
    case 'PORTAL_OPENING_FAILED':
      return offersReset(error.error?.errorCode) ? ['reset', 'retry', 'cancel'] : ['retry', 'cancel'];
    default:
      return ['retry', 'cancel'];
  }
}
