// The portal dashboard (issue 9, item 9; spec 3 §2): the branch's recent commits with their
// files, Revert To from there, and the microsite link chooser, against the real server.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useE2E, apiSession, signIn, expectVisible, expectText, expectURL } from '../harness/index.js';

const DASHBOARD = 'domain/1/portal/1/branch/master/en_GB/dashboard';
const LONG = 60_000;

describe('portal dashboard', { timeout: 180_000 }, () => {
  const e2e = useE2E();
  let adminId;
  let author;

  before(async () => {
    const admin = await apiSession(e2e.server);
    adminId = admin.userId;
    // A commit made through the API: open the workspace, write a file, commit.
    await admin.ok('GET', 'portal/1/1/open?branch=master');
    const dir = path.join(e2e.server.dataDir, 'workspaces', String(adminId), '1');
    fs.writeFileSync(path.join(dir, 'dashboard-note.html'), '<p>Dashboard</p>\n');
    await admin.ok('POST', 'portal/1/1/commits', { message: 'Add dashboard note' });
    const history = await admin.ok('GET', 'portal/1/1/commits?branch=master&limit=5');
    assert.equal(history[0].message, 'Add dashboard note');
    assert.deepEqual(history[0].files, [{ path: 'dashboard-note.html', change: 'ADD' }]);
    author = history[0].author;
    assert.ok(author, 'the commit has an author');
    // A microsite of the domain to link.
    await admin.ok('POST', 'portal/create_template/1', { name: 'Duty Free', type: 'CREW', scope: 'MICROSITE', starter: 'crew' });
  });

  async function go(page, route) {
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#/${route}`);
    await expectURL(page, new RegExp(`#/${route}$`));
  }

  it('shows the commit with its files, reverts to an older commit, and links a microsite', { timeout: LONG * 2 }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await go(page, DASHBOARD);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }), { timeout: LONG });

    const commits = page.getByRole('table', { name: 'Recent commits table' });
    await expectVisible(commits, { timeout: LONG });
    const newest = commits.getByRole('row').nth(1);
    await expectText(newest, 'Add dashboard note');
    await expectText(newest, 'dashboard-note.html');
    await expectText(newest, 'Added');
    await expectText(newest, author);

    // Revert To the commit before: its content becomes a new commit on top.
    await commits.getByRole('row').nth(2).getByRole('button', { name: /^Revert To/ }).click();
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    await expectText(commits.getByRole('row').nth(1), /Revert to [0-9a-f]{10}/, { timeout: LONG });
    await expectText(commits.getByRole('row').nth(1), 'dashboard-note.html');
    await expectText(commits.getByRole('row').nth(1), 'Deleted');
    assert.equal(fs.existsSync(path.join(e2e.server.dataDir, 'workspaces', String(adminId), '1', 'dashboard-note.html')), false);

    // The microsite chooser.
    const card = page.getByRole('region', { name: 'Microsites' });
    await expectText(card, 'No microsites are linked into this portal');
    await card.getByRole('button', { name: 'Link…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link microsites' });
    await expectVisible(dialog);
    await dialog.getByRole('checkbox', { name: 'Duty Free' }).check();
    if (process.env.PORTALWRIGHT_E2E_SCREENSHOT) {
      await page.screenshot({ path: process.env.PORTALWRIGHT_E2E_SCREENSHOT.replace(/\.png$/, '-chooser.png') });
    }
    await dialog.getByRole('button', { name: 'Link', exact: true }).click();
    const linked = card.getByRole('list', { name: 'Linked microsites' });
    await expectText(linked, 'Duty Free', { timeout: LONG });
    await expectText(linked, 'microsites/duty-free/index.html');

    if (process.env.PORTALWRIGHT_E2E_SCREENSHOT) {
      await page.screenshot({ path: process.env.PORTALWRIGHT_E2E_SCREENSHOT, fullPage: true });
    }
  });
});
