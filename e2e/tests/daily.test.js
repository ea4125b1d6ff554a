// The daily author's experience (issue 22, "Deliver" items 1, 3, 6, 7 and 10) on the demo Crew
// Portal (domain 1, portal 1, on master):
// - 1: the header's breadcrumbs stay readable at 1280 px next to the search box (the middle
//   crumbs collapse behind an ellipsis that lists the whole path) and usable at 390 px (the
//   side navigation is a drawer); screenshots of both go to e2e/.artifacts/;
// - 3: the upload dialog names its destination folder; the grid/list choice is kept like the
//   sort; a JSON file uploaded with its schema is checked against that schema, whichever
//   request finishes first;
// - 6: an open source editor shows the file as it is after Revert All;
// - 7: a page whose pages/<id>.html is missing says so, and the previous page is not shown;
// - 10: the branch-switch refusal says the local changes are on the current branch.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E, signIn, apiSession, expectVisible, expectHidden, expectText, expectURL, expectAccessible, eventually, explorer,
  ARTIFACTS_DIR,
} from '../harness/index.js';
import { pageRoute, designer, openDesigner, goTo, workspaceFile } from '../harness/pages.js';

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
    const yes = page.getByRole('button', { name: 'Yes', exact: true });
    await eventually(async () => {
      if (!(await yes.isVisible())) await panel.getByRole('button', { name: 'Revert All' }).click();
      await expectVisible(yes, { timeout: 2000 });
    });
    await yes.click();
    await expectVisible(page.getByRole('button', { name: 'Local changes: 0', exact: true }), { timeout: 25_000 });
    await eventually(async () => {
      const text = await content.textContent();
      assert.ok(!text.includes('EDITED'), `the editor still shows the discarded text: ${text.slice(0, 80)}`);
      assert.ok(text.includes('Crew Portal starter styles'));
    }, { timeout: 15_000 });
    await expectVisible(page.getByRole('heading', { name: 'Editing: /assets/css/portal.css' }));
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
