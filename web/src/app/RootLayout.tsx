import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { watchConnectivity } from './connectivity/connectivity';
import { SessionConflictDialog } from './errors/SessionConflictDialog';
import { OverlayHost } from './overlay/OverlayHost';
import { ToastStack } from '../ui/ToastStack';

/** Present on every route: the routed screen plus the overlay, toasts and session-conflict dialog. */
export function RootLayout() {
  useEffect(() => watchConnectivity(), []);
  return (
    <>
      <Outlet />
      <OverlayHost />
      <ToastStack />
      <SessionConflictDialog />
    </>
  );
}
