// Defects still seen in Chromium (issue 31 item 2), against the real server:
// - renaming the open folder of the File Explorer asks for no thumbnail of the old path (none
//   answers 404);
// - a folder opened while Delete Folder is under way stays open when the delete answers late;
// - a portal whose tasks never ran stays 'has not run yet' (UNINITIATED) after a change and a
//   commit: STALE needs an earlier run;
// - the stuck-run re-run follows the server's --task-timeout (30 minutes here), not a fixed 10
//   (the page's clock moved on; the state and Run Tasks answered by the test).
// - a server stopped normally (SIGTERM) during a loadable generation leaves it interrupted
//   (LOADABLE_INTERRUPTED: 'Generate it again'), not 'context canceled' or 'unknown commit'; a
//   server started again on the same data shows that, and Generate again, reached and pressed
//   with the keyboard, ends GENERATED;
// - the reject reason is limited to 1000 characters as the server counts them (code points): 1000
//   accented letters and emoji are taken and saved, 1001 refused.
// The Crew Portal (1) is used for the File Explorer, the Passenger Portal (2, tasks active) for
// the task runner and the loadables (their own server: the slow build is committed there).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  useE2E, signIn, apiClient, expectVisible, expectHidden, expectURL, expectText, expectEnabled, expectDisabled,
  eventually, explorer, explorerRoute,
} from '../harness/index.js';
import { goTo, workspaceFile } from '../harness/pages.js';
import { pressUntilFocused } from '../harness/keyboard.js';
import {
  commitSlowBuild, createLoadableByWizard, expectLoadable, generateLoadable, loadableRow, loadablesRoute,
} from '../harness/loadables.js';

const DOMAIN_ID = 1;
const CREW = 1;
const PASSENGER = 2;
const BRANCH = 'master';
const TEST = 90_000;
const DASHBOARD = `/#/domain/${DOMAIN_ID}/portal/${PASSENGER}/branch/${BRANCH}/en_GB/dashboard`;

const svg = (fill) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="12"><rect width="16" height="12" fill="${fill}"/></svg>\n`;

describe('defects seen in Chromium', { timeout: 360_000 }, () => {
  // The access token outlives the task runner test's jump of the page's clock past 30 minutes.
  const e2e = useE2E({ server: { args: ['--task-timeout', '30m', '--access-token-ttl', '2h'] } });

  /** Signs in and opens the File Explorer of the Crew Portal at a folder (the workspace then exists). */
  async function openExplorer(page, folder) {
    const login = await signIn(page);
    await goTo(page, explorerRoute(DOMAIN_ID, CREW, BRANCH, folder));
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 20_000 });
    await expectVisible(explorer(page).tree, { timeout: 20_000 });
    return login;
  }

  const selected = (page, name) => explorer(page).tree.locator(`[role="treeitem"][aria-selected="true"][data-name="${name}"]`);
  const toolbarButton = (page, name) => page.getByTestId('asset-drop-zone').getByRole('button', { name, exact: true });

  it('renaming the open folder asks for no thumbnail of the old path', { timeout: TEST }, async () => {
    const page = await e2e.newPage();
    const login = await openExplorer(page, '/assets');
    const names = ['drop-1.svg', 'drop-2.svg', 'drop-3.svg', 'drop-4.svg'];
    for (const [i, name] of names.entries()) {
      const file = workspaceFile(e2e.server, login.profile.user.id, CREW, `assets/acc-x/${name}`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, svg(['red', 'green', 'blue', 'black'][i]));
    }
    await goTo(page, explorerRoute(DOMAIN_ID, CREW, BRANCH, '/assets/acc-x'));
    const loaded = (name) =>
      eventually(async () => {
        const img = explorer(page).card(name).locator('img');
        assert.ok(await img.evaluate((el) => el.complete && el.naturalWidth > 0), `the thumbnail of ${name} loaded`);
      }, { timeout: 20_000 });
    for (const name of names) await loaded(name);

    // Every thumbnail answer from the rename on: none of the old path, none 404.
    const stale = [];
    let renaming = false;
    page.on('response', (r) => {
      const url = decodeURIComponent(r.url());
      if (!renaming || !url.includes('/api/v1/thumbnail/')) return;
      if (r.status() === 404 || url.includes('/assets/acc-x/')) stale.push(`${r.status()} ${url}`);
    });
    await toolbarButton(page, 'Rename Folder').click();
    const rename = page.getByRole('dialog', { name: 'Rename Folder' });
    await rename.getByLabel('New folder name').fill('acc-y');
    renaming = true;
    await rename.getByRole('button', { name: 'Submit' }).click();
    await expectHidden(rename);
    await expectURL(page, /file-explorer\?path=%2Fassets%2Facc-y$/);
    await expectVisible(selected(page, 'acc-y'));
    for (const name of names) await loaded(name);
    // A new read token (renewed, or after a refresh of the views) shows the new paths only.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    for (const name of names) await loaded(name);
    assert.deepEqual(stale, [], 'thumbnail requests of the old path');
  });

  it('a folder opened while Delete Folder is under way stays open when the delete answers late', { timeout: TEST }, async () => {
    const page = await e2e.newPage();
    const login = await openExplorer(page, '/assets');
    fs.mkdirSync(workspaceFile(e2e.server, login.profile.user.id, CREW, 'assets/doomed'), { recursive: true });
    await goTo(page, explorerRoute(DOMAIN_ID, CREW, BRANCH, '/assets/doomed'));
    await expectVisible(selected(page, 'doomed'), { timeout: 20_000 });
    await expectVisible(page.getByText('This folder is empty.'));

    // The server deletes at once; its answer reaches the page only after the author opened
    // another folder (by its address, as a link or a bookmark does).
    let opened;
    const authorMoved = new Promise((resolve) => { opened = resolve; });
    const deleteUrl = `**/api/v1/assets/${DOMAIN_ID}/${CREW}/delete`;
    await page.route(deleteUrl, async (route) => {
      const response = await route.fetch();
      await authorMoved;
      await route.fulfill({ response });
    });
    const answered = page.waitForResponse((r) => r.url().endsWith(`/assets/${DOMAIN_ID}/${CREW}/delete`));
    await toolbarButton(page, 'Delete Folder').click();
    const confirm = page.getByRole('dialog', { name: 'Delete Folder' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectHidden(confirm);
    await goTo(page, explorerRoute(DOMAIN_ID, CREW, BRANCH, '/assets/img'));
    opened();
    assert.ok((await answered).ok(), 'the folder is deleted');
    await expectHidden(explorer(page).treeItem('doomed'));
    // The delete's last step follows the parent's listing read again (the tree without the
    // folder): it leaves the folder the author opened.
    await expectVisible(selected(page, 'img'));
    assert.match(page.url(), /file-explorer\?path=%2Fassets%2Fimg$/);
    await page.unroute(deleteUrl);
  });

  const runnerButton = (page) => page.getByRole('button', { name: 'Task runner', includeHidden: true });
  const runnerPanel = (page) => page.getByRole('dialog', { name: 'Task runner' });

  it("a portal whose tasks never ran says 'has not run yet' after a change and a commit", { timeout: TEST }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await goTo(page, DASHBOARD);
    await eventually(async () => assert.equal(await runnerButton(page).getAttribute('data-phase'), 'UNINITIATED'), { timeout: 20_000 });

    // A content file (a listed extension) saved and committed through the browser's session.
    const api = apiClient(e2e.server, login.id_token);
    await api.ok('POST', `assets/${DOMAIN_ID}/${PASSENGER}/src/content/en_GB/e2e-never-ran.json`, { data: '{"note": "new"}\n' }, {
      headers: { 'If-Match': '"0"' },
    });
    await api.ok('POST', `portal/${DOMAIN_ID}/${PASSENGER}/commits`, { message: 'A change before any run' });
    const state = await api.ok('GET', `workspace-build/${DOMAIN_ID}/${PASSENGER}/state`);
    assert.equal(state.phase, 'UNINITIATED', 'STALE needs an earlier run');
    await eventually(async () => assert.equal(await runnerButton(page).getAttribute('data-phase'), 'UNINITIATED'));
    await runnerButton(page).click();
    await expectVisible(runnerPanel(page).getByText('Portal Task Runner functionality has not run yet'));
    assert.equal(await runnerPanel(page).getByText('Your portal workspace contains changes').count(), 0);
  });

  it("re-runs a stuck run after the server's --task-timeout (30 minutes), not 10", { timeout: TEST }, async () => {
    const page = await e2e.newPage();
    // The page's clock, moved on by the test; the run is RUNNING and never changes.
    await page.clock.install();
    const running = { phase: 'RUNNING', lastRunDate: null, output: 'step 1', lintWarnings: [], error: null };
    await page.route(`**/api/v1/workspace-build/${DOMAIN_ID}/${PASSENGER}/state`, (route) => route.fulfill({ json: running }));
    const isBuild = (r) => r.url().endsWith(`/workspace-build/${DOMAIN_ID}/${PASSENGER}/build`) && r.method() === 'PUT';
    await page.route(`**/api/v1/workspace-build/${DOMAIN_ID}/${PASSENGER}/build`, (route) =>
      route.fulfill({ json: { ...running, phase: 'VALIDATING' } }));
    await signIn(page);
    await goTo(page, DASHBOARD);
    await eventually(async () => assert.equal(await runnerButton(page).getAttribute('data-phase'), 'RUNNING'), { timeout: 20_000 });

    // Past the old fixed 10 minutes, short of the server's 30: no re-run (it would ask at once).
    await page.clock.fastForward('29:00');
    const early = await page.waitForRequest(isBuild, { timeout: 3_000 }).catch(() => null);
    assert.equal(early?.url() ?? null, null, "a re-run before the server's task timeout");
    // Past 30 minutes: the one re-run.
    const rerun = page.waitForRequest(isBuild, { timeout: 20_000 });
    await page.clock.fastForward('02:00');
    await rerun;
  });
});

// The server's TMPDIR: its task runner's scratch copies (one run-* folder per build under way)
// show when the generation's build has started. The sandbox's user must pass through it.
const scratchTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portalwright-e2e-tmp-'));
fs.chmodSync(scratchTmp, 0o711);
const buildsUnderWay = () => {
  const dir = path.join(scratchTmp, 'portalwright-taskrunner');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('run-')) : [];
};

describe('loadable defects seen in Chromium', { timeout: 420_000 }, () => {
  const e2e = useE2E({ server: { env: { TMPDIR: scratchTmp } } });
  after(() => fs.rmSync(scratchTmp, { recursive: true, force: true }));
  const screen = (name) => loadablesRoute(DOMAIN_ID, PASSENGER, BRANCH, name);
  const INTERRUPTED =
    'Failed to generate loadable: The generation stopped: the server running it stopped or lost contact. Generate it again.';

  it('the reject reason takes 1000 characters (accents and emoji count one) and refuses 1001', { timeout: 240_000 }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const api = apiClient(e2e.server, login.id_token);
    const name = `reject-${Date.now()}`;
    const created = await generateLoadable(api, DOMAIN_ID, PASSENGER, { name, gitRef: BRANCH });
    await expectLoadable(api, DOMAIN_ID, PASSENGER, created.id, (l) => assert.equal(l.status, 'GENERATED', JSON.stringify(l.error ?? null)));

    await goTo(page, screen('loadables-manage'));
    const row = loadableRow(page, name);
    await expectVisible(row.getByText('Generated', { exact: true }), { timeout: 30_000 });
    await row.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject loadable' });
    const reason = dialog.getByRole('textbox', { name: 'Reason' });
    const reject = dialog.getByRole('button', { name: 'Reject', exact: true });
    const tooLong = dialog.getByText('The reason may be at most 1000 characters long.');

    // 1000 characters: 500 'é' (one UTF-16 unit each) and 500 emoji (two each), 1500 units.
    const thousand = 'é'.repeat(500) + '😀'.repeat(500);
    assert.equal([...thousand].length, 1000);
    // 1001: refused with the dialog's message; Reject cannot be pressed.
    await reason.fill(thousand + 'é');
    await expectVisible(tooLong);
    await expectDisabled(reject);
    // 1000: taken, and saved as typed.
    await reason.fill(thousand);
    await expectHidden(tooLong);
    await expectEnabled(reject);
    await reject.click();
    await expectHidden(dialog, { timeout: 15_000 });
    await expectVisible(row.getByText('Rejected', { exact: true }), { timeout: 15_000 });
    const saved = await expectLoadable(api, DOMAIN_ID, PASSENGER, created.id, (l) => assert.equal(l.status, 'REJECTED'), { timeout: 10_000 });
    assert.equal(saved.rejectReason, thousand);
  });

  it('a server stopped (SIGTERM) during a generation shows it interrupted; Generate again by keyboard ends GENERATED', { timeout: 300_000 }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const api = apiClient(e2e.server, login.id_token);
    // The build waits until 45 s from now: time for the wizard and the stop while it waits; the
    // generation after the restart ends soon after that moment.
    const until = Date.now() + 45_000;
    await commitSlowBuild(e2e.server, api, { userId: login.profile.user.id, domainId: DOMAIN_ID, portalId: PASSENGER, until });

    await goTo(page, screen('loadables-create'));
    const name = await createLoadableByWizard(page);
    const row = loadableRow(page, name);
    await expectVisible(row.getByText('Generating', { exact: true }), { timeout: 20_000 });
    const { id } = (await api.ok('GET', `loadable/${DOMAIN_ID}/${PASSENGER}`)).find((l) => l.name === name) ?? {};
    assert.ok(id, `${name} listed`);

    // A normal stop while the build waits in the sandbox, then a server on the same data.
    await eventually(() => assert.equal(buildsUnderWay().length, 1, 'the build started'), { timeout: 15_000 });
    assert.ok(Date.now() < until - 3_000, 'the build still waits (a very loaded machine started it too late)');
    const exit = await e2e.server.restart({ signal: 'SIGTERM' });
    assert.deepEqual(exit, { code: 0, signal: null }, 'the server ended by itself on SIGTERM');
    const failed = await expectLoadable(api, DOMAIN_ID, PASSENGER, id, (l) => assert.equal(l.status, 'FAILED'), { timeout: 10_000 });
    assert.equal(failed.error?.errorCode, 'LOADABLE_INTERRUPTED', JSON.stringify(failed.error));

    // Manage Loadables, opened again: the reason, and Generate again reached by Tab, pressed by Enter.
    await goTo(page, screen('dashboard'));
    await goTo(page, screen('loadables-manage'));
    await expectVisible(row.getByText('Failed', { exact: true }), { timeout: 30_000 });
    await expectText(row, INTERRUPTED);
    assert.equal(await row.getByText(/context canceled|unknown commit/i).count(), 0);
    const again = row.getByRole('button', { name: 'Generate again', exact: true });
    await page.getByRole('heading', { level: 1, name: 'Manage Loadables' }).focus();
    await pressUntilFocused(again, { max: 60 });
    await page.keyboard.press('Enter');
    await expectVisible(row.getByText('Generated', { exact: true }), { timeout: 120_000 });
    await expectLoadable(api, DOMAIN_ID, PASSENGER, id, (l) => assert.equal(l.status, 'GENERATED'), { timeout: 10_000 });
  });
});
