import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { lazy, Suspense, type ComponentType } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { loadConfirmPasswordScreen } from '../../features/auth';
import { loadWelcomeDashboard } from '../../features/dashboard';
import { RootLayout } from '../RootLayout';
import { registeredRoutes, type RouteModule } from '../../core/registry';
import { AuthGate } from '../session/AuthGate';
import { guardLoader } from './guard';
import {
  BrowserNotSupportedScreen,
  MaintenanceScreen,
  NotFoundScreen,
  ServiceUnavailableScreen,
} from '../screens/StatusScreens';
import { RouteErrorScreen } from './RouteErrorScreen';

/**
 * A route element whose code is fetched only when it renders. (A route's own
 * `lazy` would fetch on match, i.e. on the login page too, because the
 * signed-in routes match while AuthGate shows the sign-in screen.)
 */
function lazyElement(load: RouteModule['lazy']) {
  const Component = lazy(async () => {
    const module = await load();
    return { default: ('default' in module ? module.default : module.Component) as ComponentType };
  });
  return (
    <Suspense
      fallback={
        <Box sx={{ display: 'grid', placeItems: 'center', p: 6 }}>
          <CircularProgress aria-label="Loading" />
        </Box>
      }
    >
      <Component />
    </Suspense>
  );
}

/**
 * The route table (spec 1 §2.1), hash based. Screens that work signed out sit
 * directly under the root; everything else is behind AuthGate, inside the
 * lazily loaded shell. Feature routes come from the registry.
 */
export function appRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      element: <RootLayout />,
      errorElement: <RouteErrorScreen />,
      children: [
        {
          path: 'confirm-password/:uuid',
          element: lazyElement(loadConfirmPasswordScreen),
        },
        { path: '404', element: <NotFoundScreen /> },
        { path: '503', element: <ServiceUnavailableScreen /> },
        { path: 'maintenance', element: <MaintenanceScreen /> },
        { path: 'browser', element: <BrowserNotSupportedScreen /> },
        {
          // The route guard (spec 1 §2.2) runs before every signed-in route renders.
          element: <AuthGate />,
          loader: guardLoader,
          shouldRevalidate: () => true,
          // While the first guard runs, the root (overlay, toasts) renders and this route shows nothing.
          HydrateFallback: () => null,
          children: [
            { index: true, element: lazyElement(loadWelcomeDashboard) },
            {
              path: 'error/live-preview-unstable',
              element: lazyElement(() => import('../screens/LivePreviewUnstableScreen')),
            },
            ...registeredRoutes().map((module) => ({ path: module.path, element: lazyElement(module.lazy) })),
          ],
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

export function createAppRouter() {
  return createHashRouter(appRoutes());
}
