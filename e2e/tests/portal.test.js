// The portal selection chain and the author's workspace (spec 1 §2.1, §2.3, §4.2; spec 3 §2, §4)
// against the real server and its demo domain 'Demo Airline'.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E, apiSession, grantGroup, signIn, expectVisible, expectHidden, expectURL, expectDisabled, expectEnabled, expectText,
  shell, revertAll,
} from '../harness/index.js';

const READER = { username: 'paula', password: 'paula-pass-1', firstName: 'Paula', lastName: 'Reader', email: 'paula@example.test' };
const DOMAIN = 'Demo Airline';
const LONG = 120_000;

describe('portal workspace', { timeout: 240_000 }, () => {
  const e2e = useE2E({ server: { users: [READER] } });
  let admin;
  let adminId;

  /** Writes a file into a user's workspace of the Crew Portal (a local change). */
  function writeWorkspaceFile(userId, name, content) {
    const dir = path.join(e2e.server.dataDir, 'workspaces', String(userId), '1');
    assert.ok(fs.existsSync(dir), `workspace ${dir} exists`);
    fs.writeFileSync(path.join(dir, name), content);
  }

  before(async () => {
    admin = await apiSession(e2e.server);
    adminId = admin.userId;
    await admin.ok('POST', 'portal/1/1/branches', { name: 'feature/summer' });
    await grantGroup(admin, 1, 'Portal Readers', ['portal_read', 'branch_read'], [READER.username]);
  });

  const nav = (page) => page.getByRole('navigation', { name: 'Side navigation' });

  async function openDomain(page) {
    await nav(page).getByRole('button', { name: /Select Domain/ }).click();
    await page.getByRole('list', { name: 'Domains' }).getByRole('button', { name: DOMAIN }).click();
    await expectURL(page, /#\/domain\/1\/dashboard$/);
  }

  async function pickPortal(page, name) {
    await nav(page).getByRole('button', { name: /Select Portal/ }).click();
    const tree = page.getByRole('list', { name: 'Portals' });
    await expectVisible(tree);
    await tree.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  }


  it('opens Crew Portal through the pickers, switches language and branch, commits and reverts', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await openDomain(page);

    await pickPortal(page, 'Crew Portal');
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/[^/]+\/en_GB\/dashboard$/);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }));
    await expectText(nav(page), 'Select Branch');

    // Language: the URL's language segment changes, the screen stays.
    await nav(page).getByRole('button', { name: /Select Language/ }).click();
    await page.getByRole('list', { name: 'Languages' }).getByRole('button', { name: /^French \(France\)/ }).click();
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/[^/]+\/fr_FR\/dashboard$/);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }));

    // Branch: '/' travels as ':'.
    await nav(page).getByRole('button', { name: /Select Branch/ }).click();
    await page.getByRole('list', { name: 'Branches' }).getByRole('button', { name: 'feature/summer' }).click();
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/feature:summer\/fr_FR\/dashboard$/);
    await expectText(page.getByRole('table', { name: 'Portal details' }), 'feature/summer');

    // A local change shows in the header's menu (refreshed every 10 s).
    writeWorkspaceFile(adminId, 'summer-note.html', '<p>Summer</p>\n');
    await expectVisible(shell(page).localChanges(1), { timeout: 25_000 });
    await shell(page).localChanges(1).click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    await expectText(panel.getByRole('list', { name: 'Uncommitted files' }), 'summer-note.html');

    // The commit message rule.
    const messageBox = panel.getByLabel('Commit message');
    const submit = panel.getByRole('button', { name: 'Submit' });
    await expectDisabled(submit);
    await messageBox.fill('!not valid');
    await expectVisible(panel.getByText('Please match the requested format. Only alphanumeric and numetric characters are allowed.'));
    await expectDisabled(submit);
    await messageBox.fill('Add summer note');
    await expectEnabled(submit);
    await submit.click();
    await expectHidden(panel);
    await expectVisible(shell(page).localChanges(0), { timeout: 25_000 });

    // Another change, then Revert All.
    writeWorkspaceFile(adminId, 'winter-note.html', '<p>Winter</p>\n');
    await expectVisible(shell(page).localChanges(1), { timeout: 25_000 });
    await shell(page).localChanges(1).click();
    await expectText(panel.getByRole('list', { name: 'Uncommitted files' }), 'winter-note.html');
    await revertAll(page);
    await expectVisible(shell(page).localChanges(0), { timeout: 25_000 });
    assert.equal(fs.existsSync(path.join(e2e.server.dataDir, 'workspaces', String(adminId), '1', 'winter-note.html')), false);
  });

  it("a second user sees the first user's changes among other users' changes", { timeout: LONG }, async () => {
    // The admin's workspace on the active branch, with an uncommitted file (a new API session:
    // the browser sign-in of the previous test ended the first one).
    admin = await apiSession(e2e.server);
    const opened = await admin.ok('GET', 'portal/1/1/open?override=true');
    writeWorkspaceFile(adminId, 'admin-draft.html', '<p>Draft</p>\n');

    const page = await e2e.newPage();
    await signIn(page, READER);
    await openDomain(page);
    await pickPortal(page, 'Crew Portal');
    await expectURL(page, new RegExp(`#/domain/1/portal/1/branch/${opened.branch.replace(/\//g, ':')}/en_GB/dashboard$`));
    await page.getByRole('button', { name: 'Local changes', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    // Read only: no commit box, no Revert All.
    await expectVisible(panel.getByRole('region', { name: "Other users' changes" }));
    assert.equal(await panel.getByLabel('Commit message').count(), 0);
    const others = panel.getByRole('list', { name: 'Other users' });
    await expectText(others, 'admin');
    await others.getByRole('button', { name: 'View changes' }).first().click();
    const dialog = page.getByRole('dialog', { name: /Local changes of/ });
    await expectText(dialog, 'admin-draft.html');
  });

  it('opening a limited portal shows the limited-mode overlay until it is dismissed for good', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await openDomain(page);

    await pickPortal(page, 'Legacy Crew Portal');
    const overlay = page.getByRole('dialog', { name: 'Limited Portal' });
    await expectVisible(overlay);
    await overlay.getByRole('checkbox', { name: 'Do not show this message again' }).check();
    await overlay.getByRole('button', { name: 'Proceed' }).click();
    await expectURL(page, /#\/domain\/1\/portal\/3\/branch\/[^/]+\/[^/]+\/dashboard$/);
    await expectVisible(page.getByRole('heading', { name: 'Legacy Crew Portal', level: 1 }));
    await expectVisible(nav(page).getByText('Limited Portal', { exact: true }));
    assert.equal(await nav(page).getByRole('button', { name: /Select Language/ }).count(), 0);
    const stored = await page.evaluate(() => localStorage.getItem('hideLimitedModeOverlay'));
    assert.deepEqual(JSON.parse(stored), { [String(adminId)]: true });

    // Another portal, then the limited one again: no overlay.
    await pickPortal(page, 'Crew Portal');
    await expectURL(page, /#\/domain\/1\/portal\/1\//);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }));
    await pickPortal(page, 'Legacy Crew Portal');
    await expectVisible(page.getByRole('heading', { name: 'Legacy Crew Portal', level: 1 }));
    assert.equal(await overlay.count(), 0);
  });

  /** Opens a route of the signed-in app without reloading it (a new history entry). */
  async function go(page, route) {
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#/${route}`);
  }

  it('Back from the error screen of a portal that does not exist shows the screen before it', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await openDomain(page);
    await expectVisible(page.getByRole('heading', { name: DOMAIN }));

    await go(page, 'domain/1/portal/999999/branch/master/en_GB/dashboard');
    const error = page.getByTestId('portal-error');
    await expectVisible(error);
    await expectText(error, 'Failed to open the portal for editing');

    await page.goBack();
    await expectURL(page, /#\/domain\/1\/dashboard$/);
    await expectHidden(error);
    await expectVisible(page.getByRole('heading', { name: DOMAIN }));
    // The domain dashboard works: a portal opens from it.
    await pickPortal(page, 'Crew Portal');
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/[^/]+\/[^/]+\/dashboard$/);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }));
    assert.equal(await error.count(), 0);
  });

  it('Back from the error of a domain that does not exist shows the screen before it', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await openDomain(page);
    await expectVisible(page.getByRole('heading', { name: DOMAIN }));

    await go(page, 'domain/999999/dashboard');
    const error = page.getByText('Could not open domain: The domain does not exist');
    await expectVisible(error);

    await page.goBack();
    await expectURL(page, /#\/domain\/1\/dashboard$/);
    await expectHidden(error);
    await expectVisible(page.getByRole('heading', { name: DOMAIN }));
    await expectVisible(nav(page).getByText(DOMAIN, { exact: true }));
    // The domain dashboard works: a portal opens from it.
    await pickPortal(page, 'Crew Portal');
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/[^/]+\/[^/]+\/dashboard$/);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }));
  });
});
