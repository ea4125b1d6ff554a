/** Test helpers of the Administration screens (imported by *.test.tsx only). */
import type { ComponentType } from 'react';
import { storeTokens } from '../../api/authStorage';
import { useSessionStore } from '../../app/session/sessionStore';
import { ToastStack } from '../../app/toasts/ToastStack';
import { clearToasts } from '../../app/toasts/toastService';
import { loginResponse, sampleUser } from '../../test/helpers';
import { renderRoute } from '../../test/render';

export const adminUser = {
  ...sampleUser,
  id: 1,
  userName: 'admin',
  firstName: 'Portal',
  lastName: 'Admin',
  admin: true,
};

/** Signs in an admin (or `user`) and renders `Screen` at `path` (matching `pattern`), with the toast stack. */
export function renderAdminScreen(Screen: ComponentType, pattern: string, path: string, user = adminUser) {
  clearToasts();
  storeTokens(loginResponse(user));
  useSessionStore.setState({ status: 'loggedIn', user });
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

/** The JSON body of the one call to `key` ("METHOD path"). */
export function bodyOf(fetch: { mock: { calls: unknown[][] } }, key: string): unknown {
  const [method, path] = key.split(' ');
  const call = fetch.mock.calls.find(([url, init]) => {
    const m = ((init as RequestInit | undefined)?.method ?? 'GET').toUpperCase();
    return m === method && String(url).split('?')[0] === path;
  });
  if (!call) throw new Error(`no call to ${key}`);
  const body = (call[1] as RequestInit | undefined)?.body;
  return body === undefined || body === null ? undefined : JSON.parse(String(body));
}

/** Whether `key` ("METHOD path") was called. */
export function called(fetch: { mock: { calls: unknown[][] } }, key: string): boolean {
  try {
    bodyOf(fetch, key);
    return true;
  } catch {
    return false;
  }
}
