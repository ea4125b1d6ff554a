// No lost updates (issue 8 item 0), as two users in Chromium against the real server and its
// demo portal 'Crew Portal' (domain 1, portal 1):
// - A (an author) adds a language in Portal Settings and commits; B (the admin) has Settings
//   open, gets the reload toast, clicks Reload Now and sees A's language, also after leaving and
//   coming back; B adds another language, saves and commits: master has both.
// - Revert All after an edit: Settings shows the reverted file, and the next Save does not
//   re-apply the discarded edit.
// - A stale save (the file changed in B's workspace after B opened it) shows the conflict
//   dialog, overwrites nothing, and 'Reload and reapply' keeps both changes.
// - Deleting a domain says which portals go with it.
// With E2E_SCREENSHOTS=1 the conflict dialog and the domain confirmation are saved in
// e2e/.artifacts/.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { useE2E, apiClient, apiSession, grantGroup, signIn, revertAll, expectVisible, expectHidden, expectURL, expectDisabled, ARTIFACTS_DIR } from '../harness/index.js';

const AUTHOR = { username: 'ann', password: 'ann-pass-1', firstName: 'Ann', lastName: 'Author', email: 'ann@example.test' };
const SETTINGS = 'domain/1/portal/1/branch/master/en_GB/settings';
const DASHBOARD = 'domain/1/portal/1/branch/master/en_GB/dashboard';
const RELOAD_TEXT = 'Another user committed changes to the portal, please reload your workspace now to prevent conflicts';
const SAVED = 'Settings saved to your workspace. Commit them to share them.';
const CONFLICT_TITLE = 'Portal settings changed';
const LONG = 30_000;

describe('no lost updates', { timeout: 300_000 }, () => {
  const e2e = useE2E({ server: { users: [AUTHOR] } });
  let adminId;

  /** portal.json on master in the canonical repository. */
  const masterLanguages = () =>
    JSON.parse(
      execFileSync('git', ['--git-dir', path.join(e2e.server.dataDir, 'repos', '1.git'), 'show', 'master:portal.json'], {
        stdio: 'pipe',
      }).toString(),
    ).languageSettings.languages;

  /** portal.json in a user's workspace of the Crew Portal. */
  const workspaceLanguages = (userId) =>
    JSON.parse(fs.readFileSync(path.join(e2e.server.dataDir, 'workspaces', String(userId), '1', 'portal.json'), 'utf8'))
      .languageSettings.languages;

  before(async () => {
    const admin = await apiSession(e2e.server);
    adminId = admin.userId;
    const permissions = ['portal_read', 'portal_write', 'branch_read', 'portal_settings_read', 'portal_settings_write'];
    await grantGroup(admin, 1, 'Authors', permissions, [AUTHOR.username]);
  });

  /** Opens a route of the signed-in app without reloading it. */
  async function go(page, route) {
    await page.evaluate((hash) => {
      window.location.hash = hash;
    }, `#/${route}`);
    await expectURL(page, new RegExp(`#/${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  }

  const languageList = (page) => page.getByRole('list', { name: 'Languages' });
  // Each language chip carries its code (its label is the language's name and code).
  const chip = (page, code) => languageList(page).locator(`[data-language="${code}"]`);
  const saveButton = (page) => page.getByRole('button', { name: 'Save', exact: true });
  const toast = (page, text) => page.getByRole('status').filter({ hasText: text });

  async function openSettings(page) {
    await go(page, SETTINGS);
    await expectVisible(page.getByRole('heading', { name: 'Portal Settings' }));
    await expectVisible(languageList(page), { timeout: LONG });
  }

  async function addLanguage(page, code) {
    await page.getByLabel('Language code').fill(code);
    await page.getByRole('button', { name: 'Add language' }).click();
    await expectVisible(chip(page, code));
  }

  async function save(page) {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/settings/1/1') && r.request().method() === 'PUT'),
      saveButton(page).click(),
    ]);
    assert.equal(response.status(), 200, `save: HTTP ${response.status()} ${await response.text()}`);
    assert.match(response.request().headers()['if-match'] ?? '', /^".+"$/, 'the save says which version it was based on');
    await expectVisible(toast(page, SAVED));
    await expectDisabled(saveButton(page));
  }

  async function commit(page, message) {
    await page.getByRole('button', { name: /^Local changes/ }).click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    await expectVisible(panel);
    await panel.getByLabel('Commit message').fill(message);
    await panel.getByRole('button', { name: 'Submit' }).click();
    await expectHidden(panel, { timeout: LONG });
  }

  async function screenshot(page, name) {
    if (!process.env.E2E_SCREENSHOTS) return;
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), animations: 'disabled' });
  }

  it("Reload Now brings A's language into B's Settings; B's commit keeps it on master", async () => {
    const b = await e2e.newPage();
    await signIn(b);
    await openSettings(b);
    await expectHidden(chip(b, 'da_DK'));

    const a = await e2e.newPage();
    await signIn(a, { username: AUTHOR.username, password: AUTHOR.password });
    await openSettings(a);
    await addLanguage(a, 'da_DK');
    await save(a);
    await commit(a, 'Add French');
    assert.ok(masterLanguages().includes('da_DK'), "A's language is on master");

    // B is told, reloads, and sees A's language without leaving the screen.
    await expectVisible(b.getByText(RELOAD_TEXT), { timeout: LONG });
    await b.getByRole('button', { name: 'Reload Now' }).click();
    await expectHidden(b.getByText(RELOAD_TEXT));
    await expectVisible(chip(b, 'da_DK'), { timeout: LONG });
    // ... and after leaving and coming back.
    await go(b, DASHBOARD);
    await expectVisible(b.getByRole('heading', { name: 'Crew Portal', level: 1 }));
    await openSettings(b);
    await expectVisible(chip(b, 'da_DK'));

    await addLanguage(b, 'it_IT');
    await save(b);
    await commit(b, 'Add Italian');
    const master = masterLanguages();
    assert.ok(master.includes('da_DK') && master.includes('it_IT'), `master has both: ${master}`);
  });

  it('Revert All: Settings shows the reverted file and Save does not re-apply the discarded edit', async () => {
    const b = await e2e.newPage();
    await signIn(b);
    await openSettings(b);
    await addLanguage(b, 'es_ES');
    await save(b);
    assert.ok(workspaceLanguages(adminId).includes('es_ES'));

    await revertAll(b);
    await expectHidden(chip(b, 'es_ES'), { timeout: LONG });
    await expectDisabled(saveButton(b));
    assert.ok(!workspaceLanguages(adminId).includes('es_ES'), 'the workspace is reverted');

    // The next edit and Save write that edit only.
    await addLanguage(b, 'nl_NL');
    await save(b);
    const languages = workspaceLanguages(adminId);
    assert.ok(languages.includes('nl_NL') && !languages.includes('es_ES'), `workspace: ${languages}`);
  });

  it('a stale save shows the conflict, overwrites nothing, and reload-and-reapply keeps both changes', async () => {
    const b = await e2e.newPage();
    const apiB = apiClient(e2e.server, (await signIn(b)).id_token);
    await openSettings(b);
    await addLanguage(b, 'pt_PT'); // not saved yet

    // Meanwhile portal.json of B's workspace changes (another tab of B, say): read, then write with its version.
    const current = await apiB.call('GET', 'settings/1/1');
    assert.ok(current.status < 300, `GET settings/1/1: HTTP ${current.status} ${current.text}`);
    assert.match(current.etag ?? '', /^".*"$/, 'GET settings answers an ETag');
    const next = structuredClone(current.body);
    next.languageSettings.languages.push('sv_SE');
    await apiB.ok('PUT', 'settings/1/1', next, { headers: { 'If-Match': current.etag } });
    // A write without a version, or with the old one, is refused.
    assert.equal((await apiB.call('PUT', 'settings/1/1', next)).status, 428);
    const stale = await apiB.call('PUT', 'settings/1/1', next, { headers: { 'If-Match': current.etag } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.errorCode, 'FILE_CHANGED');

    await saveButton(b).click();
    const dialog = b.getByRole('dialog', { name: CONFLICT_TITLE });
    await expectVisible(dialog);
    await expectVisible(dialog.getByText(/Portal settings were changed since you opened them/));
    await expectVisible(dialog.getByRole('list', { name: 'Your unsaved changes' }).getByText('Added language pt_PT'));
    await screenshot(b, 'settings-conflict-dialog');
    let languages = workspaceLanguages(adminId);
    assert.ok(languages.includes('sv_SE') && !languages.includes('pt_PT'), `nothing overwritten: ${languages}`);
    await expectHidden(toast(b, SAVED));

    await dialog.getByRole('button', { name: 'Reload and reapply my changes' }).click();
    await expectHidden(dialog);
    await expectVisible(chip(b, 'sv_SE'));
    await expectVisible(chip(b, 'pt_PT'));
    await expectVisible(b.getByRole('status', { name: 'Your changes were applied again on top of the current settings' }));
    await screenshot(b, 'settings-reapplied');
    await save(b);
    languages = workspaceLanguages(adminId);
    assert.ok(languages.includes('sv_SE') && languages.includes('pt_PT'), `both kept: ${languages}`);
  });

  it("the domain delete confirmation lists the domain's portals", async () => {
    // Earlier browser sign-ins of the admin ended older sessions: sign in again for the set-up.
    const admin = await apiSession(e2e.server);
    const domain = await admin.ok('POST', 'domain/', { name: 'Doomed Airline' });
    await admin.ok('POST', `portal/create_template/${domain.id}`, { name: 'Doomed Crew', type: 'CREW', starter: 'crew' });
    await admin.ok('POST', `portal/create_template/${domain.id}`, { name: 'Doomed Cabin', type: 'PASSENGER', starter: 'passenger' });

    const page = await e2e.newPage();
    const pageApi = apiClient(e2e.server, (await signIn(page)).id_token);
    await go(page, `admin/domains/${domain.id}`);
    await expectVisible(page.getByRole('heading', { name: 'Doomed Airline' }));
    await page.getByRole('button', { name: 'Delete Domain' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Domain' });
    await expectVisible(dialog);
    const portals = dialog.getByRole('list', { name: 'Portals to delete' });
    await expectVisible(portals.getByText('Doomed Cabin', { exact: true }));
    await expectVisible(portals.getByText('Doomed Crew', { exact: true }));
    await expectVisible(dialog.getByText(/Its 2 portals/));
    await screenshot(page, 'domain-delete-confirmation');
    await dialog.getByRole('button', { name: 'Delete Domain' }).click();
    await expectVisible(toast(page, 'Domain Doomed Airline deleted.'), { timeout: LONG });
    const left = await pageApi.ok('GET', 'search/portals?pn=Doomed');
    assert.deepEqual(left ?? [], [], `the domain's portals are gone: ${JSON.stringify(left)}`);
  });
});
