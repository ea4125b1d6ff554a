/**
 * The one render helper of the web tests: a screen inside a query client and a memory router,
 * optionally signed in and with the toast stack. Every test renders through it.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ComponentType, ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { storeTokens } from '../api/authStorage';
import { createQueryClient } from '../core/queryClient';
import { useSessionStore } from '../core/sessionStore';
import { ToastStack } from '../ui/ToastStack';
import { clearToasts } from '../core/toastService';
import { loginResponse, sampleUser } from './helpers';

/** The routers of the running test: test/setup.ts disposes of them after each test. */
const routers = new Set<ReturnType<typeof createMemoryRouter>>();

/**
 * Ends the test's routers: their loaders under way are aborted, so none of them writes into the
 * shared stores during the next test (on a busy machine a guard loader of one test raised its
 * global error in the next one).
 */
export function disposeRouters(): void {
  for (const router of routers) router.dispose();
  routers.clear();
}

/** Renders routes inside a query client and a memory router at `path`. */
export function renderRoute(routes: RouteObject[], path = '/', queryClient: QueryClient = createQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  routers.add(router);
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...utils, router, queryClient };
}

/** Renders `ui` at every path inside a query client and a memory router. */
export function renderWithProviders(ui: ReactElement, queryClient?: QueryClient) {
  return renderRoute([{ path: '*', element: ui }], '/', queryClient);
}

/** A signed-in administrator. */
export const adminUser = {
  ...sampleUser,
  id: 1,
  userName: 'admin',
  firstName: 'Portal',
  lastName: 'Admin',
  admin: true,
};

/** Signs `user` in (tokens and session store). */
export function signIn(user: typeof sampleUser = adminUser): void {
  storeTokens(loginResponse(user));
  useSessionStore.setState({ status: 'loggedIn', user });
}

/** Signs in an admin (or `user`) and renders `Screen` at `path` (matching `pattern`), with the toast stack. */
export function renderScreen(
  Screen: ComponentType,
  pattern: string,
  path: string,
  user: typeof sampleUser = adminUser,
) {
  clearToasts();
  signIn(user);
  return renderRoute(
    [
      {
        path: pattern,
        element: (
          <>
            <Screen />
            <ToastStack />
          </>
        ),
      },
    ],
    path,
  );
}
