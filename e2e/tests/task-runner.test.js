// The task runner from the header (issue 13; spec 3 §2 task-runner panel, §4 "Task runner"):
// on the demo Passenger Portal (UNIVERSAL, its task runner active, the build `node build.js`),
// Run Tasks runs the build in the sandbox on the server and the phase changes arrive live; the
// last run's output opens and is copied; a content file changed through the product makes the
// state STALE ('Your portal workspace contains changes').
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useE2E, apiSession, signIn, expectVisible, expectHidden, eventually, passengerPortal } from '../harness/index.js';

const DOMAIN_ID = 1;

describe('task runner', { timeout: 180_000 }, () => {
  const e2e = useE2E();
  let portalId;
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    ({ id: portalId, branch } = await passengerPortal(admin, DOMAIN_ID));
  });

  const button = (page) => page.getByRole('button', { name: 'Task runner', includeHidden: true });
  const panel = (page) => page.getByRole('dialog', { name: 'Task runner' });

  it('runs the tasks from the header, shows the phases and the output, and turns STALE after a change', { timeout: 150_000 }, async () => {
    const page = await e2e.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const login = await signIn(page);
    await page.goto(`/#/domain/${DOMAIN_ID}/portal/${portalId}/branch/${branch}/en_GB/dashboard`);
    await expectVisible(button(page), { timeout: 20_000 });

    await button(page).click();
    await expectVisible(panel(page));
    await panel(page).getByRole('button', { name: 'Run Tasks' }).click();
    // The run ends STABLE (the phases come over the socket); its output is in the workspace.
    await expectVisible(panel(page).getByText('Your portal workspace tasks ran successfully!'), { timeout: 60_000 });
    await expectVisible(panel(page).getByText(/^Last run was /));
    const workspace = path.join(e2e.server.dataDir, 'workspaces', String(login.profile.user.id), String(portalId));
    assert.ok(fs.existsSync(path.join(workspace, 'pw-dist', 'index.html')), 'the build wrote pw-dist/index.html');

    // The last run's output, copied.
    await panel(page).getByRole('button', { name: 'Last Run Output' }).click();
    const output = page.getByRole('dialog', { name: 'Last Run Output' });
    await expectVisible(output);
    await output.getByRole('button', { name: 'Copy' }).click();
    await expectVisible(page.getByText('Output copied to clipboard'));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(copied.length > 0, 'the output was copied');
    await output.getByRole('button', { name: 'Close' }).click();
    await expectHidden(output);
    await page.keyboard.press('Escape');

    // A content file changed through the product (the asset API): STALE, live.
    // Through the browser's own token: an API sign-in would end the browser's session.
    const res = await e2e.server.fetch(`/api/v1/assets/${DOMAIN_ID}/${portalId}/src/content/en_GB/e2e-note.json`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${login.id_token}`, 'Content-Type': 'application/json', 'If-Match': '"0"' },
      body: JSON.stringify({ data: '{"note": "stale"}\n' }),
    });
    assert.ok(res.status < 300, `save: HTTP ${res.status} ${await res.text()}`);
    await eventually(async () => {
      assert.equal(await button(page).getAttribute('data-phase'), 'STALE');
    }, { timeout: 20_000 });
    await button(page).click();
    await expectVisible(panel(page).getByText('Your portal workspace contains changes'));
    await expectVisible(panel(page).getByText('Please re-run the tasks to ensure you stay up to date'));
  });
});
