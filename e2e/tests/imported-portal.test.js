// A portal imported from a project's git repository (issue 30 items 4 and 6), against the real
// server and a real `git daemon`:
// - its settings are kept by Portalwright (the settings screen says so), guessed from the
//   project's locale folder (packages/i18n/src/locales: en, fr_FR), and saving them writes
//   nothing into the repository;
// - the commit box says the host's convention applies and commits `chore(i18n): update fr`;
//   the host gets the commit, and its tree has no portal.json.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useE2E, apiSession, signIn, eventually, expectVisible, expectHidden, expectText, expectEnabled, shell } from '../harness/index.js';
import { gitHost, git } from '../harness/git.js';
import { translationsRoute, translationManager, expectTranslationManager, expectLanguage, selectKey, expectSaved } from '../harness/translations.js';

const DOMAIN_ID = 1;
const LONG = 120_000;
const REFRESH = 25_000; // the header's local changes refresh every 10 s (a save refreshes them at once)
const FR = '{\n  "nav": {\n    "home": "Accueil"\n  }\n}\n';
const toast = (page, text) => page.getByRole('status').filter({ hasText: text });

describe('a portal imported from a git URL', { timeout: 300_000 }, () => {
  const e2e = useE2E();
  let host;
  let portalId;
  let adminId;

  before(async () => {
    host = await gitHost('site.git', {
      'README.md': '# Site\n',
      'packages/i18n/src/locales/en.json': '{\n  "nav": {\n    "home": "Home"\n  }\n}\n',
      'packages/i18n/src/locales/fr-FR.json': FR,
      'apps/site/pages/en/index.mdx': '# Hello\n',
    });
    const admin = await apiSession(e2e.server);
    adminId = admin.userId;
    const created = await admin.ok('POST', `portal/create_url/${DOMAIN_ID}`, { portal: { name: 'Project Site', url: host.url } });
    portalId = created.id;
    assert.ok(portalId, `the imported portal: ${JSON.stringify(created)}`);
    await admin.ok('GET', `portal/${DOMAIN_ID}/${portalId}/open`);
  });

  after(async () => {
    await host?.stop();
  });

  const workspaceFile = (name) => path.join(e2e.server.dataDir, 'workspaces', String(adminId), String(portalId), ...name.split('/'));

  /** Goes to a hash route without a reload (a reload would sign out). */
  async function go(page, route) {
    await page.evaluate((hash) => { window.location.hash = hash; }, route.replace(/^\/#/, '#'));
  }

  it('keeps its settings out of the repository and commits a conventional message to the host', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);

    // The settings screen: kept by Portalwright; the guessed languages; the host's convention.
    await go(page, `domain/${DOMAIN_ID}/portal/${portalId}/branch/master/en/settings`);
    // A repository without portal.json is a LIMITED portal until its settings say FULL. The
    // dialog is modal: while it shows, the screen behind it (its heading too) is hidden from the
    // accessibility tree, so the heading is looked for once it is closed.
    const limited = page.getByRole('dialog', { name: 'Limited Portal' });
    await expectVisible(limited, { timeout: 30_000 });
    await limited.getByRole('button', { name: 'Proceed' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Portal Settings' }), { timeout: 30_000 });
    await expectVisible(page.getByText(/Settings are kept by Portalwright, not in the repository/), { timeout: 30_000 });
    await expectText(page.getByRole('combobox', { name: 'Commit messages' }), 'Any text, first line up to 200 characters');
    await expectVisible(page.getByRole('list', { name: 'Languages' }).getByText(/fr_FR/));
    assert.equal(await page.getByLabel('Translations base path').inputValue(), 'packages/i18n/src/locales');
    // The Translation Manager needs a FULL support level: saved, kept, nothing in the tree.
    await page.getByRole('combobox', { name: 'Support level' }).click();
    await page.getByRole('option', { name: /full/i }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectVisible(toast(page, 'Settings saved. They apply to every branch at once; nothing is committed to the repository.'));
    assert.equal(fs.existsSync(workspaceFile('portal.json')), false, 'no portal.json in the workspace');

    // A translation change.
    await go(page, translationsRoute(DOMAIN_ID, portalId, 'master', 'fr_FR'));
    await expectTranslationManager(page);
    await expectLanguage(page, 'fr_FR');
    const tm = translationManager(page);
    await selectKey(page, 'nav.home');
    assert.equal(await tm.value.inputValue(), 'Accueil');
    await tm.value.fill("Page d'accueil");
    await expectEnabled(tm.save);
    await expectSaved(page, () => tm.save.click());

    // The commit box: the rule that applies, and the project's message.
    await expectVisible(shell(page).localChanges(1), { timeout: REFRESH });
    await shell(page).localChanges(1).click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    await expectText(panel.getByRole('list', { name: 'Uncommitted files' }), 'fr-FR.json');
    await expectVisible(panel.getByText('Any text; first line up to 200 characters'), { timeout: 20_000 });
    await panel.getByLabel('Commit message').fill('chore(i18n): update fr');
    await expectVisible(panel.getByText('Any text; first line up to 200 characters'));
    const submit = panel.getByRole('button', { name: 'Submit' });
    await expectEnabled(submit);
    await submit.click();
    await expectHidden(panel);
    await expectVisible(shell(page).localChanges(0), { timeout: REFRESH });

    // The host has the commit with its message, only the locale file, and no portal.json.
    await eventually(() => {
      assert.equal(git(host.bare, 'log', '-1', '--format=%s', 'master').trim(), 'chore(i18n): update fr');
      return true;
    }, { timeout: 15_000 });
    assert.equal(git(host.bare, 'show', '--name-only', '--format=', 'master').trim(), 'packages/i18n/src/locales/fr-FR.json');
    assert.doesNotMatch(git(host.bare, 'ls-tree', '-r', '--name-only', 'master'), /portal\.json/);
    assert.equal(JSON.parse(git(host.bare, 'show', 'master:packages/i18n/src/locales/fr-FR.json')).nav.home, "Page d'accueil");
  });
});
