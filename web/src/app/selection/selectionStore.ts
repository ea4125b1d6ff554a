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
  /** The user's roles (groups) in the current domain. */
  roles: string[];
  /** The domain the permissions were loaded for (null: none loaded yet). */
  permissionsDomainId: string | null;
  /** Ids of the domains the user may write to (domain_write). */
  writableDomainIds: Array<string | number>;
}

const emptyBelowDomain = { portal: null, branch: null, language: null, page: null } as const;
const noPermissions = (): Pick<SelectionState, 'permissions' | 'roles' | 'permissionsDomainId'> => ({
  permissions: [],
  roles: [],
  permissionsDomainId: null,
});

export const initialSelectionState: SelectionState = {
  domain: null,
  ...emptyBelowDomain,
  ...noPermissions(),
  writableDomainIds: [],
};

export const useSelectionStore = create<SelectionState>(() => ({ ...initialSelectionState }));

export function selectDomain(domain: SelectedDomain | null): void {
  const current = useSelectionStore.getState().domain;
  if (current && domain && String(current.id) === String(domain.id)) {
    useSelectionStore.setState({ domain });
    return;
  }
  useSelectionStore.setState({ domain, ...emptyBelowDomain, ...noPermissions() });
}

/** The roles and permissions of the user in a domain (spec 1 §6; stored lower case). */
export function setDomainPermissions(domainId: string | number, roles: string[], permissions: string[]): void {
  useSelectionStore.setState({
    roles: [...roles],
    permissions: permissions.map((p) => p.toLowerCase()),
    permissionsDomainId: String(domainId),
  });
}

export function setWritableDomainIds(ids: Array<string | number>): void {
  useSelectionStore.setState({ writableDomainIds: ids });
}

/** Forgets the whole selection (sign-out). */
export function resetSelection(): void {
  useSelectionStore.setState({ ...initialSelectionState });
}
