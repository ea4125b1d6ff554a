// Portal management (spec 3 §2, §4, §5): Manage Portals (create from a template and from a git
// URL served by a real `git daemon`, deactivate with a comment, categories), the Branches screen
// and Admin Search, against the real server and its demo domain 'Demo Airline' (id 1).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  useE2E, signIn, freePort, eventually, expectVisible, expectHidden, expectText, expectURL, expectDisabled, expectEnabled,
} from '../harness/index.js';
import { git, stopGroup } from '../harness/git.js';

const BRANCH_RULE =
  'Please enter only Alphanumeric characters, underscore (_), dash (-), dot(.) and/or single forward slash (/).';

/** A success toast carrying `text`. */
const toast = (page, text) => page.getByRole('status').filter({ hasText: text });
const portalsTable = (page) => page.getByRole('table', { name: 'Portals' });
const portalRow = (page, name) => portalsTable(page).getByRole('row', { name: new RegExp(`^${name}`) });

/** Picks `option` in the MUI select labelled `label` (within `scope`). */
async function choose(page, scope, label, option) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expectHidden(page.getByRole('listbox'));
}

/** Opens a route of the signed-in app without reloading it. */
async function go(page, route) {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, `#/${route}`);
  await expectURL(page, new RegExp(`#/${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
}

describe('portal management', { timeout: 240_000 }, () => {
  const e2e = useE2E();
  let gitDir;
  let daemon;
  let gitURL;
  let adminId;

  before(async () => {
    adminId = (await e2e.server.apiLogin()).profile.user.id;
    // A bare repository with portal.json, index.html and a second branch, served by git daemon.
    gitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-e2e-git-'));
    const work = path.join(gitDir, 'work');
    const base = path.join(gitDir, 'served');
    fs.mkdirSync(work);
    fs.mkdirSync(base);
    git(work, 'init', '-q', '-b', 'master');
    fs.writeFileSync(
      path.join(work, 'portal.json'),
      JSON.stringify({ formatVersion: 1, name: 'Remote Site', engineType: 'UNIVERSAL', supportLevel: 'FULL', scope: 'FULL' }, null, 2),
    );
    fs.writeFileSync(path.join(work, 'index.html'), '<!doctype html><title>Remote Site</title><h1>Remote Site</h1>\n');
    git(work, 'add', '.');
    git(work, 'commit', '-q', '-m', 'Remote site');
    git(work, 'branch', 'feature/remote');
    git(gitDir, 'clone', '-q', '--bare', work, path.join(base, 'site.git'));
    const port = await freePort();
    daemon = spawn(
      'git',
      ['daemon', '--reuseaddr', '--export-all', '--listen=127.0.0.1', `--port=${port}`, `--base-path=${base}`, base],
      // Its own process group: `git daemon` runs git-daemon as a child (and that forks one
      // upload-pack per connection), so killing only the spawned pid would leave the server
      // running after the suite. after() stops the whole group.
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    let daemonErr = '';
    daemon.stderr.on('data', (d) => { daemonErr += d; });
    gitURL = `git://127.0.0.1:${port}/site.git`;
    await eventually(
      () => {
        assert.equal(daemon.exitCode, null, `git daemon exited: ${daemonErr}`);
        execFileSync('git', ['ls-remote', gitURL], { stdio: 'pipe' });
        return true;
      },
      { timeout: 15_000, message: `git daemon serves ${gitURL}` },
    );
  });

  after(async () => {
    await stopGroup(daemon);
    if (gitDir) fs.rmSync(gitDir, { recursive: true, force: true });
  });

  it('creates a portal from the crew template and one from a git URL after loading its branches', async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await go(page, 'domain/1/portal-management');
    await expectVisible(page.getByRole('heading', { name: 'Manage Portals' }));
    await expectVisible(portalRow(page, 'Crew Portal'));

    const create = page.getByRole('button', { name: 'Create Portal' });
    await expectEnabled(create);
    await create.click();
    let dialog = page.getByRole('dialog', { name: 'Create Portal' });
    await choose(page, dialog, 'Template', 'Crew Portal');
    await dialog.getByRole('textbox', { name: 'Portal name' }).fill('Ops Crew (e2e)');
    await choose(page, dialog, 'Type', 'Crew');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expectVisible(toast(page, 'Portal created successfully'));
    await expectHidden(dialog);
    await expectVisible(portalRow(page, 'Ops Crew \\(e2e\\)'));

    await create.click();
    dialog = page.getByRole('dialog', { name: 'Create Portal' });
    await dialog.getByRole('radio', { name: 'From Git URL' }).check();
    await dialog.getByRole('textbox', { name: 'Git URL' }).fill('https://example.com/not-a-repo');
    await expectVisible(dialog.getByText('This is not a valid GIT URL'));
    await expectDisabled(dialog.getByRole('button', { name: 'Load branches' }));
    await dialog.getByRole('textbox', { name: 'Git URL' }).fill(gitURL);
    await dialog.getByRole('textbox', { name: 'Portal name' }).fill('Remote Site');
    await expectDisabled(dialog.getByRole('button', { name: 'Create', exact: true }));
    await dialog.getByRole('button', { name: 'Load branches' }).click();
    const branches = dialog.getByRole('group', { name: 'Remote branches' });
    await expectVisible(branches.getByText('feature/remote'));
    await expectVisible(branches.getByText('master', { exact: true }));
    await choose(page, dialog, 'Type', 'Passenger');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    // The first creation's toast may still be up (toasts no longer cover the Create Portal button).
    await expectVisible(toast(page, 'Portal created successfully').last(), { timeout: 60_000 });
    await expectHidden(dialog);
    await expectText(portalRow(page, 'Remote Site'), /Passenger/);
  });

  it('deactivates a portal with a comment; creates a category and moves a portal into it', async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await go(page, 'domain/1/portal-management');
    const passenger = portalRow(page, 'Passenger Portal');
    await expectText(passenger, /Active/);
    await passenger.getByRole('button', { name: 'Deactivate Passenger Portal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate Portal' });
    const submit = dialog.getByRole('button', { name: 'Deactivate', exact: true });
    await expectDisabled(submit);
    await dialog.getByLabel('Comment').fill('Off season');
    await submit.click();
    await expectVisible(toast(page, 'Portal Passenger Portal deactivated.'));
    await expectText(portalRow(page, 'Passenger Portal'), /Inactive/);
    await expectVisible(portalRow(page, 'Passenger Portal').getByRole('button', { name: 'Activate Passenger Portal' }));

    await page.getByRole('button', { name: 'Create Category' }).click();
    const catDialog = page.getByRole('dialog', { name: 'Create Category' });
    await catDialog.getByLabel('Category name').fill('Ops Portals');
    await catDialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expectVisible(toast(page, 'Category Ops Portals created.'));
    await expectVisible(page.getByRole('list', { name: 'Categories' }).getByText('Ops Portals', { exact: true }));

    await portalRow(page, 'Crew Portal').getByRole('button', { name: 'Move to category: Crew Portal' }).click();
    const move = page.getByRole('dialog', { name: 'Move to category' });
    await choose(page, move, 'Category', 'Ops Portals');
    await move.getByRole('button', { name: 'Move', exact: true }).click();
    await expectVisible(toast(page, 'Crew Portal moved to Ops Portals.'));
    await expectText(portalRow(page, 'Crew Portal'), /Ops Portals/);
  });

  it('creates and deletes a branch on the Branches screen', async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await go(page, 'domain/1/portal/1/branch/master/en_GB/branches');
    await expectVisible(page.getByRole('heading', { name: 'Branches', exact: true }));
    const table = page.getByRole('table', { name: 'Branches' });
    const master = table.getByRole('row', { name: /master/ });
    await expectText(master, /Active/);
    await expectDisabled(master.getByRole('button', { name: 'Delete branch master' }));

    const create = page.getByRole('button', { name: 'Create Branch' });
    await expectEnabled(create);
    await create.click();
    const dialog = page.getByRole('dialog', { name: 'Create Branch' });
    await dialog.getByLabel('Branch name').fill('bad..name');
    await expectVisible(dialog.getByText(BRANCH_RULE));
    await expectDisabled(dialog.getByRole('button', { name: 'Create', exact: true }));
    await dialog.getByLabel('Branch name').fill('feature/e2e');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expectVisible(toast(page, 'Branch feature/e2e created from master.'));
    const row = table.getByRole('row', { name: /feature\/e2e/ });
    await expectVisible(row);

    const del = row.getByRole('button', { name: 'Delete branch feature/e2e' });
    await expectEnabled(del);
    await del.click();
    await page.getByRole('button', { name: 'Yes', exact: true }).click();
    await expectVisible(toast(page, 'Branch feature/e2e deleted.'));
    await expectHidden(row);
  });

  it('Portal Settings saves portal.json into the workspace as a local change', async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await go(page, 'domain/1/portal/1/branch/master/en_GB/settings');
    await expectVisible(page.getByRole('heading', { name: 'Portal Settings' }));
    const engine = page.getByRole('combobox', { name: 'Engine type' });
    await expectText(engine, 'Portal engine', { timeout: 30_000 });
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expectDisabled(save);
    await page.getByLabel('Language code').fill('english');
    await expectVisible(page.getByText('Enter a language code like en_GB.'));
    await page.getByLabel('Language code').fill('it_IT');
    await page.getByRole('button', { name: 'Add language' }).click();
    await expectVisible(page.getByRole('list', { name: 'Languages' }).getByText('Italian (Italy) · it_IT'));
    await save.click();
    await expectVisible(toast(page, 'Settings saved to your workspace. Commit them to share them.'));
    await expectDisabled(save);
    const settings = JSON.parse(
      fs.readFileSync(path.join(e2e.server.dataDir, 'workspaces', String(adminId), '1', 'portal.json'), 'utf8'),
    );
    assert.ok(settings.languageSettings.languages.includes('it_IT'), 'portal.json of the workspace has it_IT');
  });

  it('Admin Search finds Crew Portal and opens its dashboard', async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await page
      .getByRole('navigation', { name: 'Side navigation' })
      .getByRole('button', { name: 'Admin Search', exact: true })
      .click();
    await expectURL(page, /#\/admin\/search$/);
    await page.getByLabel('Part of the portal name').fill('Crew');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByRole('table', { name: 'Search results' }).getByRole('row', { name: 'Open Crew Portal', exact: true });
    await expectVisible(row);
    await row.click();
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/[^/]+\/en_GB\/dashboard$/);
  });
});
