// The history of one value (issue 33) in Chromium against the real server and its demo Crew
// Portal (domain 1, portal 1): two authors change a translation key one after the other and
// commit; the second opens the key's History in the Translation Manager, sees both changes with
// their authors (languages side by side), restores the first value, sees exactly that key in the
// review of the next commit, commits, and the key's history then starts with that commit. The
// History dialog and the blame pass axe (0 serious or critical). A JSON field's (and Show commit),
// a page's and a widget property's history, and a content file's blame, pass it too.
// With E2E_SCREENSHOTS=1 the history and the blame are saved in e2e/.artifacts/.
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
  expectText,
  expectAccessible,
  eventually,
  ARTIFACTS_DIR,
} from '../harness/index.js';
import { selectKey, translationManager, expectTranslationManager } from '../harness/translations.js';
import { designer, openDesigner, pageManager, pageRoute } from '../harness/pages.js';

const ANN = { username: 'ann', password: 'ann-pass-1', firstName: 'Ann', lastName: 'Author', email: 'ann@example.test' };
const BOB = { username: 'bob', password: 'bob-pass-1', firstName: 'Bob', lastName: 'Builder', email: 'bob@example.test' };
const FILE = 'translations/en_GB.json';
const KEY = 'TXT_ABOUT_TITLE';
const LONG = 30_000;

describe('value history', { timeout: 300_000 }, () => {
  const e2e = useE2E({ server: { users: [ANN, BOB] } });

  before(async () => {
    const admin = await apiSession(e2e.server);
    await grantGroup(
      admin,
      1,
      'Authors',
      ['portal_read', 'portal_write', 'branch_read', 'asset_read', 'asset_write', 'asset_create', 'translation_read', 'translation_write', 'page_read', 'page_write'],
      [ANN.username, BOB.username],
    );
  });

  /** Sets the key in the author's workspace through the Translation Manager's save, and commits. */
  async function changeAndCommit(who, value, message) {
    const client = await apiSession(e2e.server, who.username, who.password);
    await client.ok('GET', 'portal/1/1/open');
    const t = await client.ok('GET', 'translation/1/1');
    const data = { ...t.data.en_GB, [KEY]: value };
    await client.ok('PUT', 'translation/1/1', { data: { en_GB: data }, versions: { en_GB: t.versions.en_GB } });
    await client.ok('POST', 'portal/1/1/commits', { message });
  }

  const onMaster = () =>
    JSON.parse(
      execFileSync('git', ['--git-dir', path.join(e2e.server.dataDir, 'repos', '1.git'), 'show', `master:${FILE}`], { stdio: 'pipe' }).toString(),
    );

  async function screenshot(page, name) {
    if (!process.env.E2E_SCREENSHOTS) return;
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
  }

  it('shows both authors, restores the first value, and the review shows exactly that key', async () => {
    const original = onMaster()[KEY];
    await changeAndCommit(ANN, 'Ann about title', 'Ann retitles about');
    await changeAndCommit(BOB, 'Bob about title', 'Bob retitles about');

    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await signIn(page, BOB);
    await page.evaluate(() => {
      window.location.hash = '#/domain/1/portal/1/branch/master/en_GB/translations';
    });
    await expectTranslationManager(page);
    const shown = KEY.toLowerCase();
    await selectKey(page, shown);

    await page.getByRole('button', { name: `History of ${shown}` }).click();
    const dialog = page.getByRole('dialog', { name: `History of ${shown}` });
    const timeline = dialog.getByRole('list', { name: 'Changes of this value, newest first' });
    await expectVisible(timeline, { timeout: LONG });
    const items = timeline.getByRole('listitem');
    await eventually(async () => assert.ok((await items.count()) >= 2, 'two changes at least'));
    // Newest first, each with its author, message and values.
    await expectText(items.nth(0), /Bob Builder/);
    await expectText(items.nth(0), /Bob retitles about/);
    await expectText(items.nth(0), /Ann about title[\s\S]*Bob about title/);
    await expectText(items.nth(1), /Ann Author/);
    await expectText(items.nth(1), /Ann retitles about/);
    await expectText(items.nth(1), new RegExp(`${original.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*Ann about title`));
    await expectAccessible(page, 'value history dialog');
    await screenshot(page, 'value-history');

    // Restore Ann's value (keyboard: focus the button, Enter; confirm with Enter).
    const restore = items.nth(1).getByRole('button', { name: /^Restore en_GB: Ann retitles about/ });
    await restore.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Restore this value?' });
    await expectVisible(confirm);
    await confirm.getByRole('button', { name: 'Restore this value' }).click();
    // The history now starts with the uncommitted work (the toast is behind the modal dialog).
    await expectText(items.nth(0), /Uncommitted \(your work\)/, { timeout: LONG });
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The Translation Manager shows the restored value.
    const value = translationManager(page).value;
    await eventually(
      async () => assert.equal(await value.evaluate((el) => ('value' in el ? el.value : el.innerText).trim()), 'Ann about title'),
      { timeout: LONG },
    );

    // The review of the next commit: exactly that key.
    await page.getByRole('button', { name: /^Local changes/ }).click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    await expectVisible(panel);
    await panel.getByRole('button', { name: `Review ${FILE}` }).click();
    const review = page.getByRole('dialog', { name: 'Review changes' });
    const table = review.getByRole('table', { name: `Key changes of ${FILE}` });
    await expectVisible(table, { timeout: LONG });
    const rows = table.locator('tbody tr');
    await eventually(async () => assert.equal(await rows.count(), 1, 'one changed key'));
    await expectText(rows.first(), new RegExp(`${KEY}[\\s\\S]*Bob about title[\\s\\S]*Ann about title`));
    await review.getByRole('button', { name: 'Close' }).click();

    // Commit it as any change (the panel is still open).
    await expectVisible(panel);
    await panel.getByLabel('Commit message').fill('Back to the first about title');
    await panel.getByRole('button', { name: 'Submit' }).click();
    await eventually(async () => assert.equal(onMaster()[KEY], 'Ann about title'), { timeout: LONG });
    const other = Object.entries(onMaster()).filter(([k]) => k !== KEY);
    assert.ok(other.length > 10, 'the other keys stay');

    // The blame of the file: the key's row names Bob's restore commit; it passes axe.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Blame of / }).click();
    const blame = page.getByRole('dialog', { name: /^Blame of / });
    const blameTable = blame.getByRole('table', { name: /^Blame of / });
    await expectVisible(blameTable, { timeout: LONG });
    await blame.getByRole('combobox', { name: /^Author/ }).click();
    await page.getByRole('option', { name: 'Bob Builder' }).click();
    await expectText(blameTable, /txt_about_title|TXT_ABOUT_TITLE/);
    await expectText(blameTable, /Back to the first about title/);
    await expectAccessible(page, 'blame dialog');
    await screenshot(page, 'value-history-blame');
  });

  it("a JSON field's and a page's history, the file's blame: keyboard and axe", async () => {
    const admin = await apiSession(e2e.server);
    await admin.ok('GET', 'portal/1/2/open');
    const menu = 'content/en_GB/menu.json';
    const read = await admin.call('GET', `assets/1/2/src/${menu}`);
    const doc = read.body;
    doc.title = 'Our menu';
    await admin.ok('POST', `assets/1/2/src/${menu}`, { data: `${JSON.stringify(doc, null, 2)}\n` }, { headers: { 'If-Match': read.etag } });
    await admin.ok('POST', 'portal/1/2/commits', { message: 'Menu title' });

    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await signIn(page, { username: 'admin', password: e2e.server.adminPassword });
    await page.evaluate((file) => {
      window.location.hash = `#/domain/1/portal/2/branch/master/en_GB/file-explorer?path=%2Fcontent%2Fen_GB&edit=${encodeURIComponent(`/${file}`)}&mode=json`;
    }, menu);
    // The form's field "title" has its History action; by keyboard: focus, Enter.
    const history = page.getByRole('button', { name: 'History of title', exact: true });
    await expectVisible(history, { timeout: LONG });
    await history.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'History of title' });
    const items = dialog.getByRole('list', { name: 'Changes of this value, newest first' }).getByRole('listitem');
    await expectText(items.first(), /Menu title[\s\S]*Menu[\s\S]*Our menu/, { timeout: LONG });
    await expectAccessible(page, 'JSON field history');
    await screenshot(page, 'value-history-json-field');
    // Show commit opens the commit review on that commit.
    await items.first().getByRole('button', { name: /^Show commit [0-9a-f]{8}: Menu title$/ }).click();
    const commit = page.getByRole('dialog', { name: /^Commit [0-9a-f]{8}$/ });
    await expectVisible(commit.getByRole('table', { name: `Field changes of ${menu}` }), { timeout: LONG });
    await expectText(commit, /Our menu/);
    await commit.getByRole('button', { name: 'Close' }).click();
    await page.keyboard.press('Escape');
    // Array items have theirs too.
    await expectVisible(page.getByRole('button', { name: /^History of sections › 1$/ }));

    await page.getByRole('button', { name: `Blame of ${'/' + menu}` }).click();
    const blame = page.getByRole('table', { name: `Blame of ${'/' + menu}` });
    await expectVisible(blame, { timeout: LONG });
    await expectText(blame, /Our menu/);
    await expectAccessible(page, 'content file blame');
    await page.keyboard.press('Escape');

    // A page's history in the Page Manager.
    await page.evaluate(() => {
      window.location.hash = '#/domain/1/portal/1/branch/master/en_GB/page-manager';
    });
    // The Page Manager first: until it shows, the JSON editor's History buttons are still there.
    const pm = pageManager(page);
    await expectVisible(pm.heading, { timeout: LONG });
    await expectVisible(pm.tree, { timeout: LONG });
    const pageHistory = pm.details.getByRole('button', { name: /^History of / }).first();
    await expectVisible(pageHistory, { timeout: LONG });
    await pageHistory.click();
    await expectVisible(page.getByRole('dialog', { name: /^History of / }).getByRole('list'), { timeout: LONG });
    await expectAccessible(page, 'page history');
    await screenshot(page, 'value-history-page');
  });

  it("a widget property's history in the designer's property panel: axe", async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await signIn(page, { username: 'admin', password: e2e.server.adminPassword });
    const d = designer(page);
    await openDesigner(page, pageRoute(1, 1, 'master', 'home'), '[data-pw-widget="home-hero"] h1');
    await d.frame.locator('[data-pw-widget="home-hero"] h1').click();
    const form = d.form('Hero banner');
    await expectVisible(form, { timeout: LONG });
    await form.getByRole('button', { name: 'History of Title' }).click();
    const dialog = page.getByRole('dialog', { name: 'History of Title' });
    const items = dialog.getByRole('list', { name: 'Changes of this value, newest first' }).getByRole('listitem');
    await expectText(items.first(), /Create portal 'Crew Portal'[\s\S]*TXT_HOME_TITLE/, { timeout: LONG });
    await expectAccessible(page, 'widget property history');
  });
});
