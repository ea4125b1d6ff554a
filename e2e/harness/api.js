// The REST API from the tests, for setting up data and checking what the screens did.
// apiClient(server, token) calls /api/v1/<path> with a JSON body and (when a token is given)
// a Bearer token: call() returns {status, etag, body, text} whatever the status (body is the
// parsed JSON, the raw text when it is not JSON, null when empty); ok() returns the body and
// fails unless the status is below 300, naming method, path, status and body. Header values
// that are null or undefined are left out. apiSession() signs in and gives a client of that
// session; grantGroup() creates a permission group in a domain and assigns it to users.
import assert from 'node:assert/strict';
import { ADMIN_USERNAME } from './server.js';

/**
 * A client of the API as the holder of token (no Authorization header without one).
 * @param {{fetch: (p: string, init?: RequestInit) => Promise<Response>}} server from startServer()
 * @param {string} [token] an id_token
 */
export function apiClient(server, token) {
  const client = {
    token,
    /**
     * @param {string} method
     * @param {string} path relative to /api/v1/, e.g. 'user/all'
     * @param {unknown} [body] sent as JSON unless undefined
     * @param {{headers?: Record<string, string | null | undefined>}} [opts]
     * @returns {Promise<{status: number, etag: string | null, body: any, text: string}>}
     */
    async call(method, path, body, { headers = {} } = {}) {
      const all = { 'Content-Type': 'application/json', ...headers };
      if (token) all.Authorization = `Bearer ${token}`;
      const res = await server.fetch(`/api/v1/${path}`, {
        method,
        headers: Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined && v !== null)),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, etag: res.headers.get('ETag'), body: parseBody(text), text };
    },
    /** Like call(), but fails unless the status is below 300; returns the body. */
    async ok(method, path, body, opts) {
      const res = await client.call(method, path, body, opts);
      assert.ok(res.status < 300, `${method} ${path}: HTTP ${res.status} ${res.text}`);
      return res.body;
    },
  };
  return client;
}

function parseBody(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Signs in through the API (a new session: it ends the user's earlier one, a browser's too)
 * and returns a client of it, with the login response as `login` and the user's id as `userId`.
 */
export async function apiSession(server, username = ADMIN_USERNAME, password = server.adminPassword) {
  const login = await server.apiLogin(username, password);
  return { ...apiClient(server, login.id_token), login, userId: login.profile.user.id };
}

/** The ids of the users with these user names (GET user/all), in the same order. */
export async function userIds(client, usernames) {
  const users = await client.ok('GET', 'user/all');
  return usernames.map((name) => {
    const user = users.find((u) => u.userName === name);
    assert.ok(user, `no user ${name} in user/all: ${users.map((u) => u.userName).join(', ')}`);
    return user.id;
  });
}

/**
 * Creates the permission group groupName with these permissions in the domain and assigns it
 * to each of the users (by user name). Returns their ids, in the same order.
 */
export async function grantGroup(client, domainId, groupName, permissions, usernames) {
  await client.ok('POST', `permissions/createGroup/${domainId}`, { groupName, permissions });
  const ids = await userIds(client, usernames);
  for (const id of ids) await client.ok('PUT', `permissions/updateRoles/${id}/${domainId}/${encodeURIComponent(groupName)}`);
  return ids;
}
