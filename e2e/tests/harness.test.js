// Self-test of the harness against the API alone (no web app needed): the server starts on a
// free port with a fresh data dir, answers /readyz, signs in the admin, and stops cleanly.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  startServer, productVersion, launchBrowser, newContextPage, ADMIN_PASSWORD, apiClient, apiSession, grantGroup,
} from '../harness/index.js';

describe('harness', () => {
  let server;
  before(async () => {
    server = await startServer({ users: [{ username: 'bob', password: 'secret1', firstName: 'Bob', lastName: 'Builder' }] });
  });
  after(async () => {
    await server?.stop();
  });

  it('starts the server on a loopback port with a fresh data dir', async () => {
    assert.match(server.baseURL, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(fs.statSync(server.dataDir).isDirectory());
    const res = await server.fetch('/readyz');
    assert.equal(res.status, 200);
    assert.match(server.output(), new RegExp(`Portalwright \\S+ is running at http://127\\.0\\.0\\.1:${server.port}/`));
  });

  it('signs in the admin created from PORTALWRIGHT_ADMIN_PASSWORD', async () => {
    const body = await server.apiLogin('admin', ADMIN_PASSWORD);
    assert.ok(body.id_token);
    assert.ok(body.refresh_token);
    assert.equal(body.profile.user.username ?? body.profile.user.userName ?? body.profile.user.user_name, 'admin');
    const bad = await apiClient(server).call('POST', 'user/login', { username: 'admin', password: 'wrong' });
    assert.equal(bad.status, 401);
  });

  it('signs in users made with `portalwright user create`, before and during the run', async () => {
    assert.ok((await server.apiLogin('bob', 'secret1')).id_token);
    await server.createUser({ username: 'carol', password: 'secret2' });
    assert.ok((await server.apiLogin('carol', 'secret2')).id_token);
  });

  it('calls the API as a user, grants permission groups, and names a failed call', async () => {
    const admin = await apiSession(server);
    assert.equal(admin.login.profile.user.id, admin.userId);
    const [bobId] = await grantGroup(admin, 1, 'Harness Readers', ['portal_read'], ['bob']);
    const bob = await apiSession(server, 'bob', 'secret1');
    assert.equal(bob.userId, bobId);
    assert.equal((await bob.call('GET', 'user/profile')).status, 200);
    await assert.rejects(apiClient(server).ok('GET', 'user/profile'), /GET user\/profile: HTTP 401/);
  });

  it('reports the back-end version as the product version plus a build number', async () => {
    const res = await apiClient(server).call('GET', 'config/backend-version');
    assert.equal(res.status, 200);
    const text = res.text.trim().replace(/^"|"$/g, '');
    assert.match(text, new RegExp(`^${productVersion().replace(/\./g, '\\.')}\\.\\d+$`));
  });

  it('drives the system Chromium against the server', async () => {
    const browser = await launchBrowser();
    try {
      const { page } = await newContextPage(browser, server.baseURL);
      const res = await page.goto('/readyz');
      assert.equal(res.status(), 200);
      assert.match(await page.textContent('body'), /ready/);
    } finally {
      await browser.close();
    }
  });

  it('restarts the server on the same port and data (SIGTERM: a clean stop); a session lives on', async () => {
    const other = await startServer();
    try {
      const admin = await apiSession(other);
      await other.createUser({ username: 'dave', password: 'secret3' });
      const exit = await other.restart();
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.equal((await other.fetch('/readyz')).status, 200);
      assert.ok((await other.apiLogin('dave', 'secret3')).id_token, 'the user made before the restart');
      assert.equal((await admin.call('GET', 'user/profile')).status, 200, 'the session from before the restart');
      assert.match(other.output(), /the server exited .* after SIGTERM; starting it again/);
    } finally {
      await other.stop();
    }
  });

  it('stops the server and removes its data dir', async () => {
    const other = await startServer();
    const { dataDir, baseURL } = other;
    assert.equal((await other.fetch('/readyz')).status, 200);
    await other.stop();
    assert.equal(fs.existsSync(dataDir), false);
    await assert.rejects(fetch(baseURL + '/readyz'));
  });
});
