import Alert from '@mui/material/Alert';
import type { ReactNode } from 'react';
import { useSessionStore } from '../../core/sessionStore';

/** Spec 1 §6: the text shown where a permission is missing. */
export const NO_PERMISSION_MESSAGE =
  'You do not have the right permission to access to this section. Please contact your Administrator';

/**
 * Renders its children for admins only. The side navigation hides these
 * screens from other users; this covers a typed-in URL (the API would refuse
 * their calls anyway).
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const isAdmin = useSessionStore((s) => !!s.user?.admin);
  if (!isAdmin) {
    return (
      <Alert severity="warning" role="alert">
        {NO_PERMISSION_MESSAGE}
      </Alert>
    );
  }
  return children;
}
