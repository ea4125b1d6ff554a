// Real-world locale files in the Translation Manager (issue 24 item 7), against the real server:
// a portal imported from a git repository served by a real `git daemon`, whose translations are
// nested JSON named as real projects name them (locales/en.json, locales/pt-br.json), mapped to
// the portal's languages (en_GB, pt_BR) through its language settings:
// - the keys show as dotted paths as written ('nav.home'), their values as plain text;
// - a value edited and saved is written back nested, in place: key order, tab indentation and
//   every other byte as they were;
// - committed from the header's Local changes, the file on the git host is still nested.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E, apiSession, signIn, eventually, expectVisible, expectHidden, expectText, expectEnabled, shell,
} from '../harness/index.js';
import {
  translationsRoute, translationManager, expectTranslationManager, expectLanguage, selectKey, expectSaved,
} from '../harness/translations.js';
import { headerSearch } from '../harness/pages.js';
import { gitHost, git } from '../harness/git.js';
import { explorer, explorerRoute } from '../harness/explorer.js';

const DOMAIN_ID = 1;
const LONG = 120_000;
// The header's local changes refresh every 10 s (a save refreshes them at once).
const REFRESH = 25_000;

// The host's files: four spaces in en.json, tabs in pt-br.json; keys in no alphabetical order.
const EN = '{\n    "nav": {\n        "home": "Home",\n        "about": "About us"\n    },\n    "title": "Welcome"\n}\n';
const PT_BR = '{\n\t"nav": {\n\t\t"home": "Início",\n\t\t"about": "Sobre nós"\n\t},\n\t"title": "Bem-vindo"\n}\n';
const PT_BR_EDITED = PT_BR.replace('Início', 'Página inicial');

describe('nested locale files in the translation manager', { timeout: 300_000 }, () => {
  const e2e = useE2E();
  let host;
  let bare;
  let portalId;
  let adminId;

  before(async () => {
    // A bare repository with nested locale files, served by git daemon (pushes allowed);
    // what real repositories also carry (issue 24): a Markdown file, a symbolic link to it.
    host = await gitHost('site.git', {
      'index.html': '<!doctype html><title>Locales</title><h1>Locales</h1>\n',
      'locales/en.json': EN,
      'locales/pt-br.json': PT_BR,
      'README.md': '# Locale site\n\nThe quartermaster keeps the lantern lit.\n',
    }, (work) => fs.symlinkSync('README.md', path.join(work, 'readme-link.md')));
    bare = host.bare;
    const gitURL = host.url;

    // Import, open, and point the language settings at locales/ with en_GB and pt_BR. (A
    // repository without portal.json is a LIMITED portal, which has no Translation Manager:
    // the settings say FULL.)
    const admin = await apiSession(e2e.server);
    adminId = admin.userId;
    const created = await admin.ok('POST', `portal/create_url/${DOMAIN_ID}`, { portal: { name: 'Locale Site', url: gitURL } });
    portalId = created.id;
    assert.ok(portalId, `the imported portal: ${JSON.stringify(created)}`);
    await admin.ok('GET', `portal/${DOMAIN_ID}/${portalId}/open`);
    const settings = await admin.call('GET', `settings/${DOMAIN_ID}/${portalId}`);
    assert.equal(settings.status, 200, settings.text);
    await admin.ok(
      'PUT',
      `settings/${DOMAIN_ID}/${portalId}`,
      {
        ...settings.body,
        supportLevel: 'FULL',
        languageSettings: {
          ...settings.body.languageSettings,
          languages: ['en_GB', 'pt_BR'],
          defaultLanguage: 'en_GB',
          languageMode: 'TRANSLATION',
          translationsBasePath: 'locales',
        },
      },
      { headers: { 'If-Match': settings.etag } },
    );
    const translations = await admin.ok('GET', `translation/${DOMAIN_ID}/${portalId}`);
    assert.equal(translations.layout, 'nested');
    assert.deepEqual(translations.files, { en_GB: 'locales/en.json', pt_BR: 'locales/pt-br.json' });
  });

  after(async () => {
    await host?.stop();
  });

  const workspaceFile = (name) => path.join(e2e.server.dataDir, 'workspaces', String(adminId), String(portalId), ...name.split('/'));

  /** Goes to a hash route without a reload (a reload would sign out). */
  async function go(page, route) {
    await page.evaluate((hash) => { window.location.hash = hash; }, route.replace(/^\/#/, '#'));
  }

  it('edits a nested locale file and commits it; the file on the host is still nested', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    const tm = translationManager(page);
    await go(page, translationsRoute(DOMAIN_ID, portalId, 'master', 'pt_BR'));
    await expectTranslationManager(page);
    await expectLanguage(page, 'pt_BR');

    // Dotted keys as written; the value is plain text, the default language's beside it.
    await selectKey(page, 'nav.home');
    await expectVisible(page.getByRole('heading', { name: 'nav.home', exact: true }));
    assert.equal(await tm.value.inputValue(), 'Início');
    assert.equal(await tm.defaultValue.inputValue(), 'Home');
    await tm.value.fill('Página inicial');
    await expectEnabled(tm.save);
    const sent = await expectSaved(page, () => tm.save.click());
    assert.equal(sent.data.pt_BR['nav.home'], 'Página inicial');
    assert.deepEqual(Object.keys(sent.data.en_GB).sort(), ['nav.about', 'nav.home', 'title']);

    // Written back nested, in place: tabs, key order and the other bytes kept; en.json untouched.
    assert.equal(fs.readFileSync(workspaceFile('locales/pt-br.json'), 'utf8'), PT_BR_EDITED);
    assert.equal(fs.readFileSync(workspaceFile('locales/en.json'), 'utf8'), EN);
    assert.equal(fs.existsSync(workspaceFile('locales/pt_BR.json')), false, 'no file under the product name');

    // Commit from the header: pt-br.json only (an imported portal's settings are kept by
    // Portalwright, outside the repository).
    await expectVisible(shell(page).localChanges(1), { timeout: REFRESH });
    await shell(page).localChanges(1).click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    await expectText(panel.getByRole('list', { name: 'Uncommitted files' }), 'pt-br.json');
    await panel.getByLabel('Commit message').fill('Translate the home link');
    const submit = panel.getByRole('button', { name: 'Submit' });
    await expectEnabled(submit);
    await submit.click();
    await expectHidden(panel);
    await expectVisible(shell(page).localChanges(0), { timeout: REFRESH });

    // The host has the commit, with the file still nested as written.
    await eventually(() => {
      assert.equal(git(bare, 'log', '-1', '--format=%s', 'master').trim(), 'Translate the home link');
      return true;
    }, { timeout: 15_000 });
    assert.equal(git(bare, 'show', 'master:locales/pt-br.json'), PT_BR_EDITED);
    assert.equal(git(bare, 'show', 'master:locales/en.json'), EN);
    assert.deepEqual(JSON.parse(git(bare, 'show', 'master:locales/pt-br.json')).nav, { home: 'Página inicial', about: 'Sobre nós' });
    assert.doesNotMatch(git(bare, 'ls-tree', '-r', '--name-only', 'master'), /portal\.json/, 'no settings of ours on the host');
  });

  it('a symbolic link is shown as a link and cannot be edited', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await go(page, explorerRoute(DOMAIN_ID, portalId, 'master', '/'));
    const card = explorer(page).card('readme-link.md');
    await expectVisible(card, { timeout: 20_000 });
    await expectVisible(card.getByText('Link to README.md').first());
    assert.equal(await page.getByRole('button', { name: 'Edit readme-link.md', exact: true }).count(), 0, 'no Edit for a link');
    await expectVisible(page.getByRole('button', { name: 'Edit README.md', exact: true }));
  });

  it('search finds a phrase in a Markdown file and opens it in the File Explorer', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await go(page, explorerRoute(DOMAIN_ID, portalId, 'master', '/locales'));
    const search = headerSearch(page);
    await expectVisible(search.box, { timeout: 20_000 });
    await search.box.fill('quartermaster');
    const hit = search.results.getByRole('option').filter({ hasText: 'README.md' }).first();
    await expectVisible(hit, { timeout: 20_000 });
    await hit.click();
    await eventually(() => {
      assert.match(page.url(), /file-explorer(\?|$)/);
      assert.doesNotMatch(page.url(), /path=%2Flocales/);
      return true;
    });
    await expectVisible(explorer(page).card('README.md'), { timeout: 20_000 });
  });
});
