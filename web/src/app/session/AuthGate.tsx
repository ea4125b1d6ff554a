import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useNavigate, useRevalidator } from 'react-router';
import { AuthScreen } from '../../features/auth';
import { GlobalErrorScreen } from '../errors/GlobalErrorScreen';
import { resetGuard, restoreTarget, useGuardStore } from '../routes/guard';
import { resetSelection } from '../../core/selectionStore';
import { useClearErrorsOnLeave } from '../selection/clearErrorsOnLeave';
import { clearGlobalError, globalErrorActions, useWorkspaceErrorStore } from '../selection/workspaceError';
import { loadShell } from '../shell/loadShell';
import { addWorkspacePreparer } from '../../core/session';
import { useSessionStore } from '../../core/sessionStore';

const ShellFrame = lazy(loadShell);

// The shell chunk downloads while 'Preparing Workspace' is shown.
addWorkspacePreparer(loadShell);

const spinner = (
  <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
    <CircularProgress aria-label="Loading" />
  </Box>
);

/**
 * Guards the signed-in routes: the shell when signed in, the sign-in screen
 * when signed out, nothing while a session check runs (the overlay says what
 * is happening). After login the route guard (routes/guard.ts) runs for the
 * route to restore (reUrl or the last visited route) before the shell shows.
 */
export function AuthGate() {
  const status = useSessionStore((s) => s.status);
  const userId = useSessionStore((s) => s.user?.id);
  const ready = useGuardStore((s) => s.ready);
  const restored = useGuardStore((s) => s.restored);
  const globalError = useWorkspaceErrorStore((s) => s.error);
  const location = useLocation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  useClearErrorsOnLeave();

  useEffect(() => {
    // The store, not this render's value: the user may have acted (Continue) before this effect
    // ran, and their navigation then counts as the restore.
    if (status === 'loggedIn' && userId !== undefined && !useGuardStore.getState().restored) {
      useGuardStore.setState({ restored: true });
      // A navigation (even to the same place) runs the guard for the route to show.
      void navigate(restoreTarget(location, userId), { replace: true });
    } else if (status === 'loggedOut' && (restored || ready)) {
      resetGuard();
      resetSelection();
      clearGlobalError();
    }
  }, [status, userId, restored, ready, location, navigate]);

  if (status === 'loggedIn') {
    if (globalError) {
      const offered = globalErrorActions(globalError.type);
      return (
        <GlobalErrorScreen
          title={globalError.title}
          message={globalError.message}
          actions={{
            retry: offered.includes('retry') ? () => void revalidator.revalidate() : undefined,
            continue: offered.includes('continue')
              ? () => {
                  clearGlobalError();
                  useGuardStore.setState({ restored: true });
                  void navigate('/', { replace: true });
                }
              : undefined,
          }}
        />
      );
    }
    if (!ready) return spinner;
    return (
      <Suspense fallback={spinner}>
        <ShellFrame />
      </Suspense>
    );
  }
  if (status === 'loggedOut') return <AuthScreen />;
  return null;
}
