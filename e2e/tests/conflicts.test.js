// Working together (issue 21) as two authors in Chromium against the real server and its demo
// Crew Portal (domain 1, portal 1):
// - neighbouring translation keys and two appends to one JSON array commit without a conflict;
// - an overlapping key opens the resolution screen; "Keep mine" lands mine and the other
//   author's other edits stay;
// - Reset (asked first, saying the work is kept for the server's 60 days) then "Recover
//   discarded work" brings the text back;
// - the review shows a key change before the commit.
// With E2E_SCREENSHOTS=1 the resolution screen and the review are saved in e2e/.artifacts/.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E,
  apiSession,
  grantGroup,
  signIn,
  expectVisible,
  expectHidden,
  expectURL,
  expectDisabled,
  expectText,
  eventually,
  ARTIFACTS_DIR,
} from '../harness/index.js';

const AUTHOR = { username: 'ann', password: 'ann-pass-1', firstName: 'Ann', lastName: 'Author', email: 'ann@example.test' };
const DASHBOARD = 'domain/1/portal/1/branch/master/en_GB/dashboard';
const TRANSLATIONS = 'translations/en_GB.json';
const MENU = 'widgets/database/footer-links.json';
const LONG = 30_000;

describe('working together', { timeout: 300_000 }, () => {
  const e2e = useE2E({ server: { users: [AUTHOR] } });
  let admin;
  let ann;

  let annId;

  before(async () => {
    admin = await apiSession(e2e.server);
    await grantGroup(admin, 1, 'Authors', ['portal_read', 'portal_write', 'branch_read', 'asset_read', 'asset_write', 'asset_create', 'translation_read', 'translation_write', 'code_read', 'code_write'], [AUTHOR.username]);
  });

  /** A new API session of Ann (one session per user: it ends her browser's, so it comes first). */
  async function annSession() {
    ann = await apiSession(e2e.server, AUTHOR.username, AUTHOR.password);
    annId = ann.userId;
    return ann;
  }

  /** A file of Ann's workspace, read from disk (her browser holds her session). */
  const annFile = (file) => JSON.parse(fs.readFileSync(path.join(e2e.server.dataDir, 'workspaces', String(annId), '1', file), 'utf8'));

  /** The file on master in the canonical repository. */
  const onMaster = (file) =>
    execFileSync('git', ['--git-dir', path.join(e2e.server.dataDir, 'repos', '1.git'), 'show', `master:${file}`], { stdio: 'pipe' }).toString();

  /** Changes a JSON file of a user's workspace through the editors' save call. */
  async function edit(client, file, change) {
    const read = await client.call('GET', `assets/1/1/src/${file}`);
    assert.equal(read.status, 200, `read ${file}: ${read.text}`);
    const doc = read.body;
    change(doc);
    await client.ok('POST', `assets/1/1/src/${file}`, { data: `${JSON.stringify(doc, null, 2)}\n` }, { headers: { 'If-Match': read.etag } });
  }

  async function go(page, route) {
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#/${route}`);
  }

  const panel = (page) => page.getByRole('region', { name: 'Local changes' });

  async function openPanel(page) {
    await page.getByRole('button', { name: /^Local changes/ }).click();
    await expectVisible(panel(page));
    return panel(page);
  }

  /** Commits from the Local changes panel; answers the panel (still open on a conflict). */
  async function commit(page, message) {
    const p = await openPanel(page);
    await p.getByLabel('Commit message').fill(message);
    await p.getByRole('button', { name: 'Submit' }).click();
    return p;
  }

  async function screenshot(page, name) {
    if (!process.env.E2E_SCREENSHOTS) return;
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
  }

  async function openDashboard(page, who) {
    await signIn(page, who);
    await go(page, DASHBOARD);
    await expectVisible(page.getByRole('button', { name: /^Local changes/ }), { timeout: LONG });
  }

  it('neighbouring keys and two appends commit without a conflict', async () => {
    await admin.ok('GET', 'portal/1/1/open');
    await (await annSession()).ok('GET', 'portal/1/1/open');
    await edit(admin, TRANSLATIONS, (d) => (d.TXT_ABOUT_TITLE = 'Admin title'));
    await edit(ann, TRANSLATIONS, (d) => (d.TXT_ABOUT_TEXT = 'Ann text'));
    const item = (label) => ({ label, link: { type: 'Internal', value: `#/${label}` }, newTab: false });
    await edit(admin, MENU, (d) => d.data.items.push(item('TXT_ADMIN_ENTRY')));
    await edit(ann, MENU, (d) => d.data.items.push(item('TXT_ANN_ENTRY')));
    await admin.ok('POST', 'portal/1/1/commits', { message: 'Admin title and entry' });

    const page = await e2e.newPage();
    await openDashboard(page, { username: AUTHOR.username, password: AUTHOR.password });
    const p = await commit(page, 'Ann text and entry');
    await expectHidden(p, { timeout: LONG });
    const tr = JSON.parse(onMaster(TRANSLATIONS));
    assert.equal(tr.TXT_ABOUT_TITLE, 'Admin title');
    assert.equal(tr.TXT_ABOUT_TEXT, 'Ann text');
    const labels = JSON.parse(onMaster(MENU)).data.items.map((i) => i.label);
    assert.ok(labels.includes('TXT_ADMIN_ENTRY') && labels.includes('TXT_ANN_ENTRY'), `both entries: ${labels}`);
  });

  it('an overlapping key opens the resolution screen; "Keep mine" lands mine, the other edits stay', async () => {
    await admin.ok('GET', 'portal/1/1/open');
    await (await annSession()).ok('GET', 'portal/1/1/open');
    await edit(admin, TRANSLATIONS, (d) => {
      d.TXT_ABOUT_TITLE = 'Admin overlapping title';
      d.TXT_ABOUT_TEXT = 'Admin other edit';
    });
    await admin.ok('POST', 'portal/1/1/commits', { message: 'Admin overlap' });
    await edit(ann, TRANSLATIONS, (d) => (d.TXT_ABOUT_TITLE = 'Ann overlapping title'));

    const page = await e2e.newPage();
    await openDashboard(page, { username: AUTHOR.username, password: AUTHOR.password });
    const p = await commit(page, 'Ann overlap');
    const alert = p.getByRole('alert');
    await expectVisible(alert.getByRole('button', { name: 'Resolve conflicts' }), { timeout: LONG });
    await expectDisabled(p.getByRole('button', { name: 'Submit' }));
    await alert.getByRole('button', { name: 'Resolve conflicts' }).click();

    await expectURL(page, /\/conflicts$/);
    await expectVisible(page.getByRole('heading', { name: 'Resolve conflicts' }), { timeout: LONG });
    // Leaving loses nothing: the screen comes back from the server.
    await go(page, DASHBOARD);
    await expectVisible(page.getByRole('button', { name: /^Local changes/ }), { timeout: LONG });
    await page.goBack();
    const conflict = page.getByRole('region', { name: `${TRANSLATIONS}: TXT_ABOUT_TITLE` });
    await expectVisible(conflict, { timeout: LONG });
    await expectVisible(conflict.getByText('Ann overlapping title'));
    await expectVisible(conflict.getByText('Admin overlapping title'));
    await conflict.getByRole('radio', { name: 'Keep mine' }).check();
    await screenshot(page, 'conflicts-resolution');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/workspace-conflicts/1/1/resolve') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Resolve and commit' }).click(),
    ]);
    assert.equal(response.status(), 200, await response.text());
    await eventually(() => {
      const tr = JSON.parse(onMaster(TRANSLATIONS));
      assert.equal(tr.TXT_ABOUT_TITLE, 'Ann overlapping title');
      assert.equal(tr.TXT_ABOUT_TEXT, 'Admin other edit');
    });
  });

  it('Reset asks first, then "Recover discarded work" brings the text back', async () => {
    await admin.ok('GET', 'portal/1/1/open');
    await (await annSession()).ok('GET', 'portal/1/1/open');
    await edit(admin, TRANSLATIONS, (d) => (d.TXT_ABOUT_TEXT = 'Admin wins the race'));
    await admin.ok('POST', 'portal/1/1/commits', { message: 'Admin race' });
    await edit(ann, TRANSLATIONS, (d) => (d.TXT_ABOUT_TEXT = 'Ann text to recover'));

    const page = await e2e.newPage();
    await openDashboard(page, { username: AUTHOR.username, password: AUTHOR.password });
    const p = await commit(page, 'Ann race');
    const alert = p.getByRole('alert');
    await expectVisible(alert.getByRole('button', { name: 'Reset Workspace' }), { timeout: LONG });
    await alert.getByRole('button', { name: 'Reset Workspace' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset Workspace?' });
    await expectVisible(confirm);
    // The server keeps the work (commits and uncommitted edits) 60 days; the screens say so.
    await expectText(confirm, 'Reset discards your local commits and uncommitted changes. They are kept under Recover discarded work for 60 days');
    await confirm.getByRole('button', { name: 'Reset' }).click();
    await eventually(() => assert.equal(annFile(TRANSLATIONS).TXT_ABOUT_TEXT, 'Admin wins the race'));

    const again = await openPanel(page);
    await again.getByRole('button', { name: 'Recover discarded work' }).click();
    const dialog = page.getByRole('dialog', { name: 'Recover discarded work' });
    await expectVisible(dialog.getByRole('table', { name: 'Discarded work' }), { timeout: LONG });
    await expectText(dialog, 'Local commits and uncommitted changes that a Reset or a branch override put aside, kept for 60 days.');
    await dialog.getByRole('button', { name: 'Restore' }).first().click();
    await eventually(() => assert.equal(annFile(TRANSLATIONS).TXT_ABOUT_TEXT, 'Ann text to recover'));
    await (await annSession()).ok('POST', 'portal/1/1/revert', {});
  });

  it('the review shows a key change before the commit', async () => {
    await (await annSession()).ok('GET', 'portal/1/1/open');
    await edit(ann, TRANSLATIONS, (d) => (d.TXT_ABOUT_TITLE = 'Reviewed title'));
    const page = await e2e.newPage();
    await openDashboard(page, { username: AUTHOR.username, password: AUTHOR.password });
    const p = await openPanel(page);
    await p.getByRole('button', { name: `Review ${TRANSLATIONS}` }).click();
    const review = page.getByRole('dialog', { name: 'Review changes' });
    const table = review.getByRole('table', { name: `Key changes of ${TRANSLATIONS}` });
    await expectVisible(table, { timeout: LONG });
    await expectVisible(table.getByText('TXT_ABOUT_TITLE'));
    await expectVisible(table.getByText('Reviewed title'));
    await screenshot(page, 'conflicts-review');
    await (await annSession()).ok('POST', 'portal/1/1/revert', {});
  });

  it("presence: the other author's editor shows who is editing, within 2 s of the first keystroke", async () => {
    const route = `domain/1/portal/1/branch/master/en_GB/file-explorer?path=%2Fassets%2Fcss&edit=${encodeURIComponent('/assets/css/portal.css')}&mode=source`;
    const b = await e2e.newPage();
    await openDashboard(b, undefined);
    await go(b, route);
    await expectVisible(b.getByRole('heading', { name: 'Editing: /assets/css/portal.css' }), { timeout: LONG });
    const a = await e2e.newPage();
    await openDashboard(a, { username: AUTHOR.username, password: AUTHOR.password });
    await go(a, route);
    await expectVisible(a.locator('.ace_content'), { timeout: LONG });
    const bar = b.getByRole('status', { name: 'Other people on this file' });
    await expectVisible(bar.getByText('Ann Author is viewing this file'), { timeout: LONG });
    await a.locator('.ace_content').click();
    const t0 = Date.now();
    await a.keyboard.type('/* ann */');
    await expectVisible(bar.getByText('Ann Author is editing this file'), { timeout: 2_000 });
    const ms = Date.now() - t0;
    assert.ok(ms < 2_000, `presence took ${ms} ms`);
    await screenshot(b, 'conflicts-presence');
  });
});
