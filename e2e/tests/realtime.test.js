// Realtime collaboration (issue 5) with two browser contexts as two users in the same portal:
// A changes the workspace and commits; B sees A's change appear among other users' changes
// without reloading, gets the reload toast, reloads and is up to date. Then B's socket drops:
// the app polls, and reconnects when the network is back.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useE2E, apiClient, apiSession, grantGroup, signIn, expectVisible, expectHidden, eventually } from '../harness/index.js';

const WRITER = { username: 'bob', password: 'bob-pass-1', firstName: 'Bob', lastName: 'Writer', email: 'bob@example.test' };
const DASHBOARD = '/#/domain/1/portal/1/branch/master/en_GB/dashboard';
const RELOAD_TEXT = 'Another user committed changes to the portal, please reload your workspace now to prevent conflicts';

describe('realtime', { timeout: 180_000 }, () => {
  const e2e = useE2E({ server: { users: [WRITER] } });

  before(async () => {
    await grantGroup(await apiSession(e2e.server), 1, 'Writers', ['portal_read', 'portal_write', 'branch_read'], [WRITER.username]);
  });

  it("B sees A's change live, gets the reload toast after A's commit, reloads and is up to date", async () => {
    const a = await e2e.newPage();
    const { id_token: tokenA, profile: profileA } = await signIn(a);
    const apiA = apiClient(e2e.server, tokenA);
    await a.goto(DASHBOARD);
    await expectVisible(a.getByRole('heading', { name: 'Crew Portal', level: 1 }));

    const b = await e2e.newPage();
    const { id_token: tokenB, profile: profileB } = await signIn(b, { username: WRITER.username, password: WRITER.password });
    const apiB = apiClient(e2e.server, tokenB);
    await b.goto(DASHBOARD);
    await expectVisible(b.getByRole('heading', { name: 'Crew Portal', level: 1 }));

    // B opens the local-changes panel before A changes anything.
    await b.getByRole('button', { name: /^Local changes/ }).click();
    const panel = b.getByRole('region', { name: 'Local changes' });
    await expectVisible(panel);

    // A changes the workspace through the API (the probe settings are a file of the portal).
    // A whole-file save carries the version it read (If-Match, docs/api.md).
    const read = await apiA.call('GET', 'portal/load/1/1/probeSettings');
    await apiA.ok('POST', 'portal/save/1/1/probeSettings', { data: { gridSize: 8 } }, { headers: { 'If-Match': read.etag } });
    const others = panel.getByRole('list', { name: 'Other users' });
    await expectVisible(others.getByText(/Portal Administrator|admin/), { timeout: 15_000 });

    // A commits; B is told to reload.
    await apiA.ok('POST', 'portal/1/1/commits', { message: 'Grid size 8' });
    await b.keyboard.press('Escape');
    await expectVisible(b.getByText(RELOAD_TEXT), { timeout: 15_000 });
    await b.getByRole('button', { name: 'Reload Now' }).click();
    await expectHidden(b.getByText(RELOAD_TEXT));

    // B's workspace now has A's commit and is level with the branch.
    const bobDir = path.join(e2e.server.dataDir, 'workspaces', String(profileB.user.id), '1');
    await waitUntil(() => fs.existsSync(path.join(bobDir, 'probe-settings.json')), 15_000, "A's file in B's workspace");
    // The file lands during the reload's checkout; the reload's status follows a moment later.
    await eventually(async () => {
      const changes = await apiB.ok('GET', 'portal/1/1/wsChanges/master');
      const bobEntry = changes.find((c) => c.user.id === profileB.user.id);
      assert.equal(bobEntry?.behindCount, 0, `B is up to date: ${JSON.stringify(bobEntry)}`);
      assert.ok(changes.some((c) => c.user.id === profileA.user.id));
    });
  });

  it('when the socket drops the app polls local commits, and it reconnects', async () => {
    const b = await e2e.newPage();
    // The test stands between the page and the server's socket: it can drop it and refuse
    // reconnects while the network itself stays up (HTTP keeps working, as in a real drop).
    let allow = true;
    const live = [];
    await b.routeWebSocket(/\/api\/v1\/ws\?/, (ws) => {
      if (!allow) {
        ws.close();
        return;
      }
      ws.connectToServer();
      live.push(ws);
    });
    await signIn(b, { username: WRITER.username, password: WRITER.password });
    await b.goto(DASHBOARD);
    await expectVisible(b.getByRole('heading', { name: 'Crew Portal', level: 1 }));
    await waitUntil(() => live.length > 0, 15_000, 'the socket');

    const polled = b.waitForRequest((r) => r.url().includes('/local-commits'), { timeout: 25_000 });
    allow = false;
    for (const ws of live.splice(0)) await ws.close();
    await polled; // local commits are polled while the socket is down

    allow = true;
    await waitUntil(() => live.length > 0, 30_000, 'a reconnect');
  });
});

async function waitUntil(cond, timeout, what) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
