// The daily author's experience (issue 22, "Deliver" items 1, 3, 6, 7 and 10) on the demo Crew
// Portal (domain 1, portal 1, on master):
// - 1: the header's breadcrumbs stay readable at 1280 px next to the search box (the middle
//   crumbs collapse behind an ellipsis that lists the whole path) and usable at 390 px (the
//   side navigation is a drawer); screenshots of both go to e2e/.artifacts/;
// - 2: a toast never covers the source editor's Save and Cancel or a dialog's actions; the
//   same toast twice shows once, with '×2';
// - 3: the upload dialog names its destination folder; the grid/list choice is kept like the
//   sort; a JSON file uploaded with its schema is checked against that schema, whichever
//   request finishes first; a folder opened while Delete Folder is under way stays open; a
//   renamed folder leaves no request for its old path; a folder made elsewhere shows up in the
//   tree on return to the tab; at 390 px every toolbar action is reachable, none overlapping
//   (a screenshot goes to e2e/.artifacts/);
// - 6: an open source editor, and an open page source, show the file as it is after Revert
//   All (page source with an unsaved edit: kept, said, and Reload offered);
// - 7: a page whose pages/<id>.html is missing says so, and the previous page is not shown;
// - 10: the branch-switch refusal says the local changes are on the current branch.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E, signIn, apiSession, expectVisible, expectHidden, expectText, expectURL, expectAccessible, expectDisabled,
  eventually, explorer, revertAll, ARTIFACTS_DIR,
} from '../harness/index.js';
import {
  pageRoute, designer, openDesigner, goTo, workspaceFile, readWorkspaceFile, sourceMode, aceValue, setAceValue,
} from '../harness/pages.js';

const DOMAIN_ID = 1;
const PORTAL_ID = 1; // the Crew Portal
const BRANCH = 'master';
const TEST = 60_000;
const PORTAL = `/#/domain/${DOMAIN_ID}/portal/${PORTAL_ID}/branch/${BRANCH}/en_GB`;
const explorerAt = (folder) => `${PORTAL}/file-explorer?path=${encodeURIComponent(folder)}`;

describe("the daily author's experience", { timeout: 360_000 }, () => {
  const e2e = useE2E();

  before(async () => {
    const admin = await apiSession(e2e.server);
    await admin.ok('POST', `portal/${DOMAIN_ID}/${PORTAL_ID}/branches`, { name: 'feature/daily' });
  });

  /** Signs in and opens the File Explorer of the Crew Portal at a folder. */
  async function openExplorer(page, folder) {
    const login = await signIn(page);
    await goTo(page, explorerAt(folder));
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 20_000 });
    await expectVisible(explorer(page).tree, { timeout: 20_000 });
    return login;
  }

  /** Revert All from the header's local changes (there is at least one); the count goes to 0. */
  async function revertAllToZero(page) {
    await revertAll(page);
    await expectVisible(page.getByRole('button', { name: 'Local changes: 0', exact: true }), { timeout: 25_000 });
  }

  /** Whether two boxes (from boundingBox()) overlap by more than `slack` px (joined borders). */
  const overlaps = (a, b, slack = 0) =>
    !!a && !!b && a.x + slack < b.x + b.width && b.x + slack < a.x + a.width &&
    a.y + slack < b.y + b.height && b.y + slack < a.y + a.height;

  /** The boxes of the toasts shown (alerts and statuses in a fixed layer outside the header). */
  const toastBoxes = (page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('[role="alert"], [role="status"]')]
        .filter((el) => {
          if (el.closest('header')) return false;
          for (let e = el.parentElement; e; e = e.parentElement) if (getComputedStyle(e).position === 'fixed') return true;
          return false;
        })
        .map((el) => {
          const r = el.getBoundingClientRect();
          return { text: el.textContent, x: r.x, y: r.y, width: r.width, height: r.height };
        }));

  /** No toast shown covers any of the buttons. */
  async function expectUncovered(page, buttons, where) {
    const toasts = await toastBoxes(page);
    assert.ok(toasts.length > 0, `a toast is shown (${where})`);
    for (const button of buttons) {
      const box = await button.boundingBox();
      assert.ok(box, `${button} is shown (${where})`);
      for (const toast of toasts)
        assert.ok(!overlaps(toast, box), `the toast "${toast.text}" covers ${button} (${where}): ${JSON.stringify({ toast, box })}`);
    }
  }

  /** Each crumb shown whole: none is cut with an ellipsis. */
  async function expectCrumbsWhole(page) {
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await eventually(async () => {
      const cut = await crumbs.locator('li p').evaluateAll((els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.clientWidth < 8).map((e) => e.textContent));
      assert.deepEqual(cut, [], 'crumbs cut short');
    });
  }

  it('1: breadcrumbs are readable at 1280 px and usable at 390 px', { timeout: TEST }, async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await openExplorer(page, '/assets/css');
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await expectText(crumbs, 'File Explorer');
    await expectVisible(page.getByRole('combobox', { name: 'Search in portal' }));
    await expectCrumbsWhole(page);
    // The middle crumbs (domain and portal) are behind the ellipsis, listed in its popover.
    await crumbs.getByRole('button', { name: /^Show the full path/ }).click();
    const full = page.getByRole('list', { name: 'Full path' });
    await expectText(full, 'Crew Portal');
    await expectText(full, 'Demo Airline');
    await expectAccessible(page, 'header with the full path');
    await page.keyboard.press('Escape');
    await expectHidden(full);
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'breadcrumbs-1280.png') });

    // A phone: the side navigation is a drawer, the crumbs and the content keep the width.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectVisible(page.getByRole('button', { name: 'Open navigation' }));
    await expectHidden(page.getByRole('navigation', { name: 'Side navigation' }));
    await expectText(crumbs, 'File Explorer');
    await expectCrumbsWhole(page);
    const main = await page.getByRole('main').boundingBox();
    assert.ok(main && main.width >= 380, `the content takes the screen's width: ${JSON.stringify(main)}`);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'breadcrumbs-390.png') });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expectVisible(page.getByRole('navigation', { name: 'Side navigation' }));
    await expectAccessible(page, 'navigation drawer at 390 px');
  });

  it("2: a toast never covers the editor's Save or a dialog's actions; the same one twice shows '×2'", { timeout: TEST }, async () => {
    const page = await e2e.newPage({ viewport: { width: 1280, height: 720 } });
    await openExplorer(page, '/assets/css');
    // Every save of portal.css is refused the same way.
    await page.route(`**/api/v1/assets/${DOMAIN_ID}/${PORTAL_ID}/src/assets/css/portal.css`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ httpStatus: 500, errorTitle: 'Server error', errorMessage: 'The disk is full.' }),
        })
        : route.fallback());
    const edit = page.getByRole('button', { name: 'Edit portal.css', exact: true });
    await expectVisible(edit, { timeout: 20_000 });
    await edit.click();
    await expectVisible(page.getByRole('heading', { name: 'Editing: /assets/css/portal.css' }), { timeout: 20_000 });
    const content = page.locator('.ace_content');
    await expectText(content, 'Crew Portal starter styles', { timeout: 20_000 });
    await content.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('EDITED ');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const cancel = page.getByRole('button', { name: 'Cancel', exact: true });

    // Saved twice, refused twice: one toast, counted.
    const failed = page.getByRole('alert').filter({ hasText: 'Failed to save changes' });
    await save.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await save.click();
    await expectVisible(failed.first());
    await save.click();
    await expectText(failed.getByTestId('toast-count'), '×2');
    assert.equal(await failed.count(), 1, 'the same toast twice is shown once');
    await expectText(failed, 'The disk is full.');

    // Save and Cancel at the bottom of the window, then in its middle: no toast over them.
    for (const block of ['end', 'center']) {
      await save.evaluate((el, block) => el.scrollIntoView({ block }), block);
      await expectUncovered(page, [save, cancel], `editor, Save scrolled to the ${block}`);
    }

    // A dialog over it, the toast still up: its actions are not covered, also in a small window.
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: 'Discard your changes?' });
    await expectVisible(dialog);
    const actions = [dialog.getByRole('button', { name: 'Discard', exact: true }), dialog.getByRole('button', { name: 'Cancel', exact: true })];
    await expectUncovered(page, actions, 'dialog at 1280x720');
    await page.setViewportSize({ width: 700, height: 420 });
    await expectUncovered(page, actions, 'dialog at 700x420');
    await actions[1].click();
    await expectHidden(dialog);
  });

  it('3: the upload names its folder, the view is kept, a JSON file meets the schema uploaded with it', { timeout: TEST }, async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    const login = await openExplorer(page, '/assets/css');
    const userId = login.profile.user.id;
    await expectVisible(explorer(page).card('portal.css'), { timeout: 20_000 });

    // The list view is kept like the sort: away and back, it is still the list.
    await page.getByRole('button', { name: 'List view', exact: true }).click();
    await expectHidden(explorer(page).grid);
    await goTo(page, `${PORTAL}/dashboard`);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }), { timeout: 20_000 });
    await goTo(page, explorerAt('/assets/css'));
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 20_000 });
    await expectVisible(page.getByRole('table').filter({ hasText: 'portal.css' }), { timeout: 20_000 });
    assert.equal(await explorer(page).grid.count(), 0, 'the grid stays off');

    // The dialog says where the files go.
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    await expectVisible(dialog);
    await expectText(dialog.getByTestId('upload-destination'), 'Files go to the folder /assets/css');
    await expectAccessible(page, 'upload dialog');

    // A JSON file with the schema that refuses it, the JSON file first: it is refused.
    await dialog.getByTestId('upload-input').setInputFiles([
      { name: 'crew.json', mimeType: 'application/json', buffer: Buffer.from('{"title":"Crew"}\n') },
      {
        name: 'crew.json.schema',
        mimeType: 'application/json',
        buffer: Buffer.from('{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}\n'),
      },
    ]);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const stored = (name) => fs.existsSync(workspaceFile(e2e.server, userId, PORTAL_ID, `assets/css/${name}`));
    await eventually(() => assert.ok(stored('crew.json.schema'), 'the schema is stored'), { timeout: 20_000 });
    await expectVisible(page.getByText('Error while uploading file crew.json').first(), { timeout: 20_000 });
    await eventually(async () => assert.equal(await dialog.getByRole('status').count(), 0, 'uploads finished'), { timeout: 20_000 });
    assert.equal(stored('crew.json'), false, 'crew.json breaks the schema uploaded with it: not stored');
  });

  it('3: a folder opened during Delete Folder stays open, a rename leaves no request for the old path, new folders show up', { timeout: TEST }, async () => {
    const page = await e2e.newPage();
    const login = await openExplorer(page, '/assets/css');
    const userId = login.profile.user.id;
    const ex = explorer(page);
    const selected = (name) => ex.tree.locator(`[role="treeitem"][aria-selected="true"][data-name="${name}"]`);
    const zone = page.getByTestId('asset-drop-zone');
    const folderOnDisk = (rel) => fs.mkdirSync(workspaceFile(e2e.server, userId, PORTAL_ID, rel), { recursive: true });
    folderOnDisk('assets/doomed');
    folderOnDisk('assets/old-name');

    // Delete Folder confirmed, another folder opened before the delete answered: it stays open.
    await goTo(page, explorerAt('/assets/doomed'));
    await expectVisible(selected('doomed'), { timeout: 20_000 });
    await expectVisible(page.getByText('This folder is empty.'));
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    const deleteUrl = `**/api/v1/assets/${DOMAIN_ID}/${PORTAL_ID}/delete`;
    await page.route(deleteUrl, async (route) => { await held; await route.continue(); });
    await zone.getByRole('button', { name: 'Delete Folder', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Folder' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectHidden(confirm);
    await ex.treeItem('css').getByRole('button', { name: 'css', exact: true }).click();
    // Released at once: the answer may come before the opened folder has rendered.
    await expectURL(page, /file-explorer\?path=%2Fassets%2Fcss$/);
    const deleted = page.waitForResponse((r) => r.url().endsWith(`/assets/${DOMAIN_ID}/${PORTAL_ID}/delete`));
    release();
    assert.ok((await deleted).ok(), 'the folder is deleted');
    // The parent's listing is read again before the delete's last step (where the jump was).
    await expectHidden(ex.treeItem('doomed'));
    await page.waitForTimeout(500);
    await expectURL(page, /file-explorer\?path=%2Fassets%2Fcss$/);
    await expectVisible(selected('css'));
    await expectVisible(ex.card('portal.css'));
    await page.unroute(deleteUrl);

    // The open folder renamed: no request for the old path once the rename answered.
    await ex.treeItem('old-name').getByRole('button', { name: 'old-name', exact: true }).click();
    await expectVisible(selected('old-name'));
    await expectVisible(page.getByText('This folder is empty.'));
    let renamed = false;
    const stale = [];
    const isOld = (url) => decodeURIComponent(url).includes('/assets/old-name');
    page.on('response', (r) => {
      if (r.url().includes('/folder/rename')) renamed = true;
      else if (isOld(r.url()) && (renamed || r.status() === 404)) stale.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
    page.on('request', (r) => {
      if (renamed && isOld(r.url())) stale.push(`sent ${r.method()} ${r.url()}`);
    });
    await zone.getByRole('button', { name: 'Rename Folder', exact: true }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Folder' });
    await rename.getByLabel('New folder name').fill('new-name');
    await rename.getByRole('button', { name: 'Submit' }).click();
    await expectHidden(rename);
    await expectURL(page, /file-explorer\?path=%2Fassets%2Fnew-name$/);
    await expectVisible(selected('new-name'));
    await expectHidden(ex.treeItem('old-name'));
    // Back to the tab: every listing on screen is read again (none of them the old path).
    const reread = page
      .waitForResponse((r) => decodeURIComponent(r.url()).endsWith('/src/assets/new-name'), { timeout: 5000 })
      .catch(() => null);
    // The parent's listing too: a return to the tab while it is still on its way joins it
    // (the listing of that moment), so the folder below is made only once it has answered.
    const parentReread = page
      .waitForResponse((r) => decodeURIComponent(r.url()).endsWith('/src/assets'), { timeout: 5000 })
      .catch(() => null);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    await Promise.all([reread, parentReread]);
    assert.deepEqual(stale, [], 'requests for the renamed folder\'s old path');
    assert.ok(await reread, 'the open folder is read again on return to the tab');

    // A folder made elsewhere (here: on disk) shows up on return to the tab, without a reload.
    folderOnDisk('assets/made-elsewhere');
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    await expectVisible(ex.treeItem('made-elsewhere'), { timeout: 5000 });
    await expectURL(page, /file-explorer\?path=%2Fassets%2Fnew-name$/);
  });

  it('3: at 390 px every File Explorer action is reachable and none overlaps another', { timeout: TEST }, async () => {
    const page = await e2e.newPage({ bypassCSP: true, viewport: { width: 390, height: 844 } }); // axe is injected as a script
    await openExplorer(page, '/assets/css');
    await expectVisible(explorer(page).card('portal.css'), { timeout: 20_000 });
    const toolbar = page.getByRole('toolbar', { name: 'File Explorer actions' });
    await expectVisible(toolbar);

    // The toolbar, the tree and the assets each within the screen, none over another.
    const boxes = async () => {
      const named = [['tree', explorer(page).tree], ['grid', explorer(page).grid]];
      for (const [i, control] of (await toolbar.locator('button').all()).entries())
        named.push([`toolbar ${i}: ${(await control.getAttribute('aria-label')) ?? (await control.innerText())}`, control]);
      const result = [];
      for (const [name, locator] of named) result.push([name, await locator.boundingBox()]);
      return result;
    };
    const shown = await boxes();
    for (const [name, box] of shown) {
      assert.ok(box, `${name} is shown`);
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${name} is within the screen: ${JSON.stringify(box)}`);
    }
    const controls = shown.filter(([name]) => name.startsWith('toolbar'));
    for (const [name, box] of controls) {
      assert.ok(box.height <= 44, `${name} keeps its label on one line: ${JSON.stringify(box)}`);
      // The grid/list toggles share a 1 px border.
      for (const [other, otherBox] of shown) if (other !== name) assert.ok(!overlaps(box, otherBox, 1), `${name} overlaps ${other}`);
    }
    // Pictured once the portal's opening overlay has faded.
    const settled = () => page
      .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), null, { timeout: 3000 })
      .catch(() => {});
    await settled();
    fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'file-explorer-390.png') });

    // The actions that are not buttons here are in the menu, and they work from there.
    await toolbar.getByRole('button', { name: 'More actions' }).click();
    const menu = page.getByRole('menu', { name: 'More actions' });
    await expectVisible(menu);
    for (const name of ['Add Folder', 'Rename Folder', 'Delete Folder', 'Download', 'Rename', 'Delete', 'Select All', 'Deselect All'])
      await expectVisible(menu.getByRole('menuitem', { name, exact: true }));
    await expectAccessible(page, 'File Explorer at 390 px, More actions open');
    await settled();
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'file-explorer-390-menu.png') });
    await menu.getByRole('menuitem', { name: 'Add Folder', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add Folder' });
    await expectVisible(add);
    await add.getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(add);
    await expectVisible(toolbar.getByRole('button', { name: 'Upload', exact: true }));
  });

  it('6: an open source editor shows the reverted file after Revert All', { timeout: TEST }, async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await openExplorer(page, '/assets/css');
    const edit = page.getByRole('button', { name: 'Edit portal.css', exact: true });
    await expectVisible(edit, { timeout: 20_000 });
    await edit.click();
    await expectVisible(page.getByRole('heading', { name: 'Editing: /assets/css/portal.css' }), { timeout: 20_000 });
    const content = page.locator('.ace_content');
    await expectText(content, 'Crew Portal starter styles', { timeout: 20_000 });

    // An edit saved: a local change.
    await content.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('EDITED ');
    await expectText(content, 'EDITED');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: 'Changes saved to your workspace.' }).first());

    // Revert All from the header, the editor still open: it shows the file as it now is.
    const localChanges = page.getByRole('button', { name: /^Local changes: [1-9]/ });
    await expectVisible(localChanges, { timeout: 25_000 });
    await localChanges.click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    await expectText(panel.getByRole('list', { name: 'Uncommitted files' }), 'portal.css');
    await revertAllToZero(page);
    await eventually(async () => {
      const text = await content.textContent();
      assert.ok(!text.includes('EDITED'), `the editor still shows the discarded text: ${text.slice(0, 80)}`);
      assert.ok(text.includes('Crew Portal starter styles'));
    }, { timeout: 15_000 });
    await expectVisible(page.getByRole('heading', { name: 'Editing: /assets/css/portal.css' }));
  });

  it('6: an open page source shows the page as it is after Revert All; an unsaved edit is kept, with Reload', { timeout: TEST }, async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    const login = await signIn(page);
    const src = sourceMode(page);
    await goTo(page, pageRoute(DOMAIN_ID, PORTAL_ID, BRANCH, 'about', 'source-mode'));
    await expectVisible(src.heading, { timeout: 20_000 });
    await expectVisible(page.getByRole('textbox', { name: /^HTML source of / }), { timeout: 20_000 });
    const original = readWorkspaceFile(e2e.server, login.profile.user.id, PORTAL_ID, 'pages/about.html');
    await eventually(async () => assert.equal(await aceValue(page), original));

    // A saved edit, then Revert All: the editor shows the page as it now is.
    await setAceValue(page, `${original}<p>EDITED</p>\n`);
    await src.save.click();
    await expectVisible(src.savedToast, { timeout: 20_000 });
    await expectDisabled(src.save);
    await revertAllToZero(page);
    await eventually(async () => assert.equal(await aceValue(page), original, 'the editor shows the reverted page'), { timeout: 15_000 });
    await expectDisabled(src.save);

    // A saved edit and an unsaved one on top, then Revert All: the unsaved edit is kept, the
    // author is told, and Reload shows the page as it now is.
    await setAceValue(page, `${original}<p>SAVED</p>\n`);
    await src.save.click();
    await expectDisabled(src.save, { timeout: 20_000 });
    await setAceValue(page, `${original}<p>UNSAVED</p>\n`);
    await revertAllToZero(page);
    const changed = page.getByRole('alert').filter({ hasText: 'This file was changed in your workspace' });
    await expectVisible(changed, { timeout: 15_000 });
    assert.equal(await aceValue(page), `${original}<p>UNSAVED</p>\n`, 'the unsaved edit is kept');
    await expectAccessible(page, 'source mode told of the revert');
    await changed.getByRole('button', { name: 'Reload', exact: true }).click();
    await eventually(async () => assert.equal(await aceValue(page), original, 'Reload shows the reverted page'));
    await expectHidden(changed);
    await expectDisabled(src.save);
  });

  it('7: a page whose HTML file is missing says so, without the previous page behind', { timeout: TEST }, async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    const login = await signIn(page);
    const d = designer(page);
    await openDesigner(page, pageRoute(DOMAIN_ID, PORTAL_ID, BRANCH, 'home'), '[data-pw-widget="home-hero"] h1');
    fs.unlinkSync(workspaceFile(e2e.server, login.profile.user.id, PORTAL_ID, 'pages/about.html'));

    await goTo(page, pageRoute(DOMAIN_ID, PORTAL_ID, BRANCH, 'about'));
    await expectVisible(d.failure, { timeout: 20_000 });
    await expectText(d.failure, 'The page file pages/about.html is missing');
    assert.ok(!(await d.failure.textContent()).includes('UNKNOWN_ERROR'), 'no unknown error');
    await eventually(async () =>
      assert.equal(await d.frameElement.evaluate((el) => getComputedStyle(el).visibility), 'hidden', 'the home page is not shown'));
    await expectAccessible(page, 'designer failure');
  });

  it('10: the branch-switch refusal says the changes are on the current branch', { timeout: TEST }, async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    const login = await signIn(page);
    await goTo(page, `${PORTAL}/dashboard`);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }), { timeout: 20_000 });
    fs.writeFileSync(workspaceFile(e2e.server, login.profile.user.id, PORTAL_ID, 'daily-note.html'), '<p>Daily</p>\n');

    const nav = page.getByRole('navigation', { name: 'Side navigation' });
    await nav.getByRole('button', { name: /Select Branch/ }).click();
    await page.getByRole('list', { name: 'Branches' }).getByRole('button', { name: 'feature/daily' }).click();
    const dialog = page.getByRole('dialog', { name: 'Local changes' });
    await expectVisible(dialog, { timeout: 20_000 });
    await expectText(dialog, 'You have local changes on this branch (master).');
    assert.ok(!(await dialog.textContent()).includes('another branch'), 'not "on another branch"');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expectURL(page, /branch\/master\//);
  });
});
