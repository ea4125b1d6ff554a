import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { lazy, Suspense } from 'react';
import { AuthScreen } from '../../features/auth/AuthScreen';
import { loadShell } from '../shell/loadShell';
import { addWorkspacePreparer } from './session';
import { useSessionStore } from './sessionStore';

const ShellFrame = lazy(loadShell);

// The shell chunk downloads while 'Preparing Workspace' is shown.
addWorkspacePreparer(loadShell);

/**
 * Guards the signed-in routes: the shell when signed in, the sign-in screen
 * when signed out, nothing while a session check runs (the overlay says what
 * is happening).
 */
export function AuthGate() {
  const status = useSessionStore((s) => s.status);
  if (status === 'loggedIn') {
    return (
      <Suspense
        fallback={
          <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
            <CircularProgress aria-label="Loading" />
          </Box>
        }
      >
        <ShellFrame />
      </Suspense>
    );
  }
  if (status === 'loggedOut') return <AuthScreen />;
  return null;
}
