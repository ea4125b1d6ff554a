import { useSelectionStore } from './selectionStore';
import { useSessionStore } from './sessionStore';
import { hasPermission } from './permissions';

/** The text of a view whose permission is missing (spec 1 §6). */
export const NO_PERMISSION_MESSAGE =
  'You do not have the right permission to access to this section. Please contact your Administrator';

/**
 * Whether the signed-in user holds every listed permission in the current domain (admins hold
 * all; short codes such as 'domain:u' are accepted).
 */
export function usePermission(required: string | readonly string[] | undefined): boolean {
  const isAdmin = useSessionStore((s) => !!s.user?.admin);
  const permissions = useSelectionStore((s) => s.permissions);
  return hasPermission({ isAdmin, permissions }, required);
}
