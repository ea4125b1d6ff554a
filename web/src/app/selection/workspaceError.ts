import { create } from 'zustand';

/**
 * Global errors of the selection chain (spec 1 §3 "Global error types", §4.2): they replace
 * the workspace with the global error screen and its actions.
 */
export type GlobalErrorType =
  | 'DOMAINS_LOADING_FAILED'
  | 'DOMAIN_OPENING_FAILED'
  | 'PORTALS_LOADING_FAILED'
  | 'PORTAL_OPENING_FAILED'
  | 'BRANCH_LOADING_FAILED'
  | 'SITEMAP_LOADING_FAILED';

export interface GlobalError {
  type: GlobalErrorType;
  title: string;
  message: string;
  /** The URL that failed (retried by Retry). */
  href: string;
}

export const GLOBAL_ERROR_MESSAGES = {
  domainsLoading: 'Failed to load the domains',
  domainOpening: 'Could not open domain: The domain does not exist',
} as const;

interface WorkspaceErrorState {
  error: GlobalError | null;
}

export const useWorkspaceErrorStore = create<WorkspaceErrorState>(() => ({ error: null }));

export function raiseGlobalError(error: GlobalError): void {
  useWorkspaceErrorStore.setState({ error });
}

export function clearGlobalError(): void {
  if (useWorkspaceErrorStore.getState().error) useWorkspaceErrorStore.setState({ error: null });
}

/** Which actions a global error offers (spec 1 §4.2). */
export function globalErrorActions(type: GlobalErrorType): Array<'retry' | 'continue' | 'cancel'> {
  switch (type) {
    case 'DOMAINS_LOADING_FAILED':
      return ['retry'];
    case 'DOMAIN_OPENING_FAILED':
    case 'PORTALS_LOADING_FAILED':
      return ['retry', 'continue'];
    default:
      return ['retry', 'cancel'];
  }
}
