import { useMemo } from 'react';
import { availableFeatureIds } from './registry';
import { useSelectionStore } from './selectionStore';
import { useSessionStore } from './sessionStore';
import type { NavContext } from './menus';

/** The navigation context of the signed-in user, from the session and selection stores. */
export function useNavContext(): NavContext {
  const isAdmin = useSessionStore((s) => !!s.user?.admin);
  const { domain, portal, branch, language, page, permissions, writableDomainIds } = useSelectionStore();
  return useMemo(
    () => ({
      isAdmin,
      writableDomainCount: writableDomainIds.length,
      domain,
      portal,
      branch,
      language,
      page,
      permissions,
      available: availableFeatureIds(),
    }),
    [isAdmin, writableDomainIds, domain, portal, branch, language, page, permissions],
  );
}
