// Every editor by keyboard (issue 31 item 1, "keyboard alone"), against the real server and the
// demo portals (Crew Portal: domain 1, portal 1; Passenger Portal: portal 2):
// - Translation Manager: Enter on a key chosen with the arrows puts the focus in its value
//   editor; from the key list Tab reaches the editor (its toolbar is one stop), then Save;
// - Ace (the source editor): Tab indents; Escape, then Tab leaves the editor;
// - Ctrl+S saves in the JSON editor, the source editor and the Translation Manager, never the
//   browser's Save Page (the key's default is prevented), and with nothing to save does nothing;
// - the page designer: a widget chosen without the pointer (the Widget select), every field of
//   its property form reached by Tab, a property changed by keyboard and saved with Ctrl+S.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  useE2E, signIn, apiSession, expectVisible, expectHidden, expectEnabled, expectDisabled, expectText, eventually,
  explorerRoute, passengerPortal,
} from '../harness/index.js';
import { crewPortal, translationManager, translationsRoute, expectTranslationManager } from '../harness/translations.js';
import { designer, goTo, openDesigner, pageRoute, readWorkspaceFile, workspaceFile } from '../harness/pages.js';
import {
  arrowUntilSelected, expectFocused, focusedDescription, hasFocus, pressUntilFocused, saveKeysPrevented, watchSaveKeys,
} from '../harness/keyboard.js';

const DOMAIN_ID = 1;
const LONG = 120_000;
const SAVED = 'Changes saved to your workspace.';

describe('editors by keyboard', { timeout: 600_000 }, () => {
  const e2e = useE2E();
  let crew;
  let passenger;

  before(async () => {
    const admin = await apiSession(e2e.server);
    crew = await crewPortal(admin, DOMAIN_ID);
    passenger = await passengerPortal(admin, DOMAIN_ID);
  });

  const savedToast = (page) => page.getByRole('status').filter({ hasText: SAVED }).last();

  /** Presses Ctrl+S and waits for the request it sends (method and path) to answer 2xx. */
  async function saveWithKeys(page, method, pathRe) {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === method && pathRe.test(new URL(r.url()).pathname), { timeout: 15_000 }),
      page.keyboard.press('Control+s'),
    ]);
    assert.ok(response.status() < 300, `${method} ${response.url()}: HTTP ${response.status()} ${await response.text()}`);
  }

  /** Opens a file of the File Explorer in its editor by the card's Edit or JSON Edit button. */
  async function openFileEditor(page, portalId, branch, folder, button, heading) {
    await goTo(page, explorerRoute(DOMAIN_ID, portalId, branch, folder));
    const edit = page.getByRole('button', { name: button, exact: true });
    await expectEnabled(edit, { timeout: 30_000 });
    await edit.click();
    await expectVisible(page.getByRole('heading', { name: heading }), { timeout: 20_000 });
  }

  it('Translation Manager: Enter on a key focuses its value editor; Tab from the list reaches it, then Save; Ctrl+S saves', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const tm = translationManager(page);
    await goTo(page, translationsRoute(DOMAIN_ID, crew.id, crew.branch));
    await expectTranslationManager(page);
    await watchSaveKeys(page);

    // Ctrl+S with nothing to save: nothing sent, and no browser dialog either.
    await tm.keys.focus();
    await page.keyboard.press('Control+s');
    assert.deepEqual(await saveKeysPrevented(page), [true], 'Ctrl+S is kept from the browser with nothing to save');

    // The arrows choose txt_about_title; Enter puts the focus in its rich-text editor.
    await tm.search.fill('txt_about');
    await expectVisible(tm.key('txt_about_title'));
    await tm.keys.focus();
    await arrowUntilSelected(tm.keys, tm.key('txt_about_title'));
    await page.keyboard.press('Enter');
    await expectFocused(tm.value);
    await expectText(tm.value, 'About this portal');

    // From the list, Tab reaches the editor in the order shown: the language file's Blame, the
    // key's History (issue 33), the editor's toolbar (one stop), then the text.
    await tm.keys.focus();
    const presses = await pressUntilFocused(tm.value, { max: 8 });
    assert.equal(presses, 4, "Tab from the key list: Blame, the key's History, the toolbar, then the value");
    // In the toolbar the arrows move between the buttons.
    await page.keyboard.press('Shift+Tab');
    await expectFocused(page.getByRole('button', { name: 'Bold', exact: true }));
    await page.keyboard.press('ArrowRight');
    await expectFocused(page.getByRole('button', { name: 'Italic', exact: true }));
    await page.keyboard.press('Tab');
    await expectFocused(tm.value);

    // Type, then Tab on to Save (past Spell check).
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' (kbd)');
    await expectText(tm.value, 'About this portal (kbd)');
    await expectEnabled(tm.save);
    assert.equal(await pressUntilFocused(tm.save, { max: 3 }), 2, 'the value, Spell check, Save');

    // Ctrl+S saves every language file (from anywhere on the screen: the list has the focus).
    await tm.keys.focus();
    await saveWithKeys(page, 'PUT', /\/api\/v1\/translation\/\d+\/\d+$/);
    await expectVisible(tm.savedToast);
    await expectDisabled(tm.save);
    assert.deepEqual(await saveKeysPrevented(page), [true, true]);
    const en = JSON.parse(readWorkspaceFile(e2e.server, login.profile.user.id, crew.id, 'translations/en_GB.json'));
    assert.equal(en.TXT_ABOUT_TITLE, 'About this portal (kbd)');
  });

  it('Ace: Tab indents; Escape, then Tab leaves the editor; Ctrl+S saves the source', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await openFileEditor(page, crew.id, crew.branch, '/assets/css', 'Edit portal.css', 'Editing: /assets/css/portal.css');
    // Named 'Source of …, Cursor at row n' once the cursor moves.
    const source = page.getByRole('textbox', { name: /^Source of \/assets\/css\/portal\.css\b/ });
    const content = page.locator('.ace_content');
    await expectText(content, 'Crew Portal starter styles', { timeout: 20_000 });
    await watchSaveKeys(page);

    // Tab into the editor (from the Theme select before it); Tab there indents.
    await page.getByRole('combobox', { name: /^Theme\b/ }).focus();
    await pressUntilFocused(source, { max: 4 });
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Tab');
    await page.keyboard.type('x');
    await expectFocused(source);
    const firstLine = () => page.evaluate(() => document.querySelector('.ace_editor').env.editor.session.getLine(0));
    assert.match(await firstLine(), /^\s+x/, 'Tab indented the line');

    // Escape, then Tab: the focus leaves Ace (to Cancel or Save below it); nothing typed.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await eventually(async () => assert.equal(await hasFocus(page.locator('.ace_editor')), false,
      `the focus left the editor; it is on ${await focusedDescription(page)}`));
    assert.match(await firstLine(), /^\s+x/, 'the Tab after Escape did not indent');
    // Shift+Tab comes back into the editor, where Tab indents again.
    await pressUntilFocused(source, { key: 'Shift+Tab', max: 3 });
    await page.keyboard.press('Tab');
    await expectFocused(source);

    // Ctrl+S saves the file.
    await saveWithKeys(page, 'POST', /\/api\/v1\/assets\/\d+\/\d+\/src\/assets\/css\/portal\.css$/);
    await expectVisible(savedToast(page));
    assert.deepEqual(await saveKeysPrevented(page), [true]);
    const file = workspaceFile(e2e.server, login.profile.user.id, crew.id, 'assets/css/portal.css');
    assert.match(fs.readFileSync(file, 'utf8').split('\n')[0], /^\s+x/);
  });

  it('JSON editor: Ctrl+S saves the form; with nothing to save it does nothing', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await openFileEditor(page, passenger.id, passenger.branch, '/content/en_GB', 'JSON Edit menu.json', 'Editing: /content/en_GB/menu.json');
    const title = page.locator('#root_title');
    await expectVisible(title, { timeout: 30_000 });
    await watchSaveKeys(page);

    // Pristine: Ctrl+S sends nothing (a save would show the 'Please wait' toast).
    await title.focus();
    await page.keyboard.press('Control+s');
    assert.deepEqual(await saveKeysPrevented(page), [true]);

    await page.keyboard.press('End');
    await page.keyboard.type(' card');
    await expectEnabled(page.getByRole('button', { name: 'Save', exact: true }));
    await saveWithKeys(page, 'POST', /\/api\/v1\/assets\/\d+\/\d+\/src\/content\/en_GB\/menu\.json$/);
    await expectVisible(savedToast(page));
    assert.deepEqual(await saveKeysPrevented(page), [true, true]);
    const file = workspaceFile(e2e.server, login.profile.user.id, passenger.id, 'content/en_GB/menu.json');
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).title, 'Menu card');
  });

  it('designer: a widget chosen by keyboard, its property fields reached by Tab, a change saved with Ctrl+S', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const d = designer(page);
    await openDesigner(page, pageRoute(DOMAIN_ID, crew.id, crew.branch, 'home'), '[data-pw-widget="home-hero"] h1');
    await expectVisible(d.outline('home-hero'));
    await watchSaveKeys(page);

    // The Widget select of the properties panel: reached by Tab from the page's toolbar, the
    // hero chosen with the arrows.
    const widget = d.properties.getByRole('combobox', { name: /^Widget\b/ });
    await expectVisible(widget);
    await page.getByRole('button', { name: 'Editor settings', exact: true }).focus();
    await pressUntilFocused(widget, { max: 6 });
    await page.keyboard.press('Enter');
    const options = page.getByRole('listbox', { name: 'Widget' });
    await expectVisible(options);
    const hero = options.getByRole('option', { name: /^home-hero\b/ });
    await pressUntilFocused(hero, { key: 'ArrowDown', max: 12 });
    await page.keyboard.press('Enter');
    const form = d.form('Hero banner');
    await expectVisible(form, { timeout: 15_000 });
    await expectFocused(widget);

    // Tab from the select visits every field of the form, in order, and leaves it.
    const fields = await form.evaluate((el) => {
      const found = [...el.querySelectorAll('input, textarea, [role="combobox"], [contenteditable="true"]')]
        .filter((f) => !f.closest('[aria-hidden="true"]') && f.getAttribute('aria-hidden') !== 'true' && f.getAttribute('type') !== 'hidden');
      found.forEach((f, i) => f.setAttribute('data-e2e-field', String(i)));
      return found.length;
    });
    assert.ok(fields >= 5, `the hero form has its fields: ${fields}`);
    const reached = new Set();
    for (let i = 0; i < 80 && reached.size < fields; i++) {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => document.activeElement?.closest('[data-e2e-field]')?.getAttribute('data-e2e-field')
        ?? document.activeElement?.querySelector?.('[data-e2e-field]')?.getAttribute('data-e2e-field') ?? null);
      if (at !== null) reached.add(at);
    }
    assert.equal(reached.size, fields, `every field reached by Tab: ${[...reached].sort().join(',')} of ${fields}`);

    // Alignment changed with the keyboard alone, then Ctrl+S saves the widget.
    const align = form.getByRole('combobox', { name: /^Alignment\b/ });
    await pressUntilFocused(align, { key: 'Shift+Tab', max: 40 });
    await page.keyboard.press('Enter');
    const center = page.getByRole('listbox', { name: 'Alignment' }).getByRole('option', { name: 'center', exact: true });
    await pressUntilFocused(center, { key: 'ArrowDown', max: 6 });
    await page.keyboard.press('Enter');
    await expectHidden(page.getByRole('listbox', { name: 'Alignment' }));
    await expectEnabled(d.saveChanges);
    await page.keyboard.press('Control+s');
    await expectVisible(d.savedToast, { timeout: 15_000 });
    await expectDisabled(d.saveChanges);
    assert.deepEqual(await saveKeysPrevented(page), [true]);
    const saved = JSON.parse(readWorkspaceFile(e2e.server, login.profile.user.id, crew.id, 'widgets/database/home-hero.json'));
    assert.equal(saved.data.align, 'center');
  });
});
