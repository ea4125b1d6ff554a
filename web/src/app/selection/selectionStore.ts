import { create } from 'zustand';
import type { EngineType, PortalScope, SupportLevel } from '../nav/menus';

/**
 * The workspace selection chain (spec 1 §4.2): domain → portal → branch,
 * language, page; plus the permissions of the current domain. Selecting a
 * domain clears everything below it.
 */
export interface SelectedDomain {
  id: string | number;
  name: string;
}

export interface SelectedPortal {
  id: string | number;
  name: string;
  supportLevel?: SupportLevel | null;
  engineType?: EngineType | null;
  scope?: PortalScope | null;
}

export interface SelectedPage {
  id: string;
  title: string;
}

export interface SelectionState {
  domain: SelectedDomain | null;
  portal: SelectedPortal | null;
  branch: string | null;
  language: string | null;
  page: SelectedPage | null;
  /** Permissions held in the current domain. */
  permissions: string[];
  /** Ids of the domains the user may write to (domain_write). */
  writableDomainIds: Array<string | number>;
}

const emptyBelowDomain = { portal: null, branch: null, language: null, page: null } as const;

export const useSelectionStore = create<SelectionState>(() => ({
  domain: null,
  ...emptyBelowDomain,
  permissions: [],
  writableDomainIds: [],
}));

export function selectDomain(domain: SelectedDomain | null): void {
  const current = useSelectionStore.getState().domain;
  if (current && domain && String(current.id) === String(domain.id)) {
    useSelectionStore.setState({ domain });
    return;
  }
  useSelectionStore.setState({ domain, ...emptyBelowDomain, permissions: [] });
}
