// Every editor by keyboard (issue 31 item 1, "keyboard alone"), against the real server and the
// demo portals (Crew Portal: domain 1, portal 1; Passenger Portal: portal 2):
// - Translation Manager: Enter on a key chosen with the arrows puts the focus in its value
//   editor; from the key list Tab reaches the editor (its toolbar is one stop), then Save;
// - a link key (LNK_): Tab to Edit link, the Link Manager's URL changed and saved, and an image
//   key (IMG_): Tab to Select Image, a folder chosen in the picker's tree with the arrows and
//   Enter, an image with Tab and Enter; each saved with Ctrl+S and read back through the API; every control on the way
//   shows a focus ring;
// - Ace (the source editor): Tab indents; Escape, then Tab leaves the editor;
// - Ctrl+S saves in the JSON editor, the source editor and the Translation Manager, never the
//   browser's Save Page (the key's default is prevented), and with nothing to save does nothing;
// - the page designer: a widget chosen without the pointer (the Widget select), every field of
//   its property form reached by Tab, a property changed by keyboard and saved with Ctrl+S.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  useE2E, signIn, apiClient, apiSession, expectVisible, expectHidden, expectEnabled, expectDisabled, expectText, eventually,
  explorer, explorerRoute, passengerPortal,
} from '../harness/index.js';
import { crewPortal, linkManager, translationManager, translationsRoute, expectTranslationManager } from '../harness/translations.js';
import { designer, goTo, openDesigner, pageRoute, readWorkspaceFile, workspaceFile } from '../harness/pages.js';
import {
  arrowUntilSelected, assertRings, expectFocused, focusedDescription, hasFocus, pressUntilFocused, saveKeysPrevented,
  settledFocusRing, watchSaveKeys,
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

  /** Signs in and opens the Crew Portal's Translation Manager; Ctrl+S watched. Returns the login. */
  async function openTranslations(page) {
    const login = await signIn(page);
    await goTo(page, translationsRoute(DOMAIN_ID, crew.id, crew.branch));
    await expectTranslationManager(page);
    await watchSaveKeys(page);
    return login;
  }

  /** Filters the key list, chooses `key` in it with the arrows and Enter: the focus is in its value editor. */
  async function openKeyByKeyboard(page, filter, key) {
    const tm = translationManager(page);
    await tm.search.fill(filter);
    await expectVisible(tm.key(key));
    await tm.keys.focus();
    await arrowUntilSelected(tm.keys, tm.key(key));
    await page.keyboard.press('Enter');
    await expectFocused(tm.value);
  }

  /** Ctrl+S in the Translation Manager, then the saved value of an en_GB key as GET translation reads it. */
  async function saveAndRead(page, login, key) {
    await saveWithKeys(page, 'PUT', /\/api\/v1\/translation\/\d+\/\d+$/);
    await expectVisible(translationManager(page).savedToast);
    assert.deepEqual(await saveKeysPrevented(page), [true]);
    const saved = await apiClient(e2e.server, login.id_token).ok('GET', `translation/${DOMAIN_ID}/${crew.id}`);
    return saved.data.en_GB[key];
  }

  it('Translation Manager: Enter on a key focuses its value editor; Tab from the list reaches it, then Save; Ctrl+S saves', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await openTranslations(page);
    const tm = translationManager(page);

    // Ctrl+S with nothing to save: nothing sent, and no browser dialog either.
    await tm.keys.focus();
    await page.keyboard.press('Control+s');
    assert.deepEqual(await saveKeysPrevented(page), [true], 'Ctrl+S is kept from the browser with nothing to save');

    // The arrows choose txt_about_title; Enter puts the focus in its rich-text editor.
    await openKeyByKeyboard(page, 'txt_about', 'txt_about_title');
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

  it('Translation Manager: a link key edited in the Link Manager by keyboard, saved with Ctrl+S; every control shows a focus ring', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await openTranslations(page);
    const tm = translationManager(page);
    const lm = linkManager(page);
    const url = 'https://example.org/crew-handbook/kbd';

    // Enter on the key: its field has the focus; Tab: Edit link; Enter opens the Link Manager.
    await openKeyByKeyboard(page, 'lnk_handbook', 'lnk_handbook');
    assert.equal(await tm.value.inputValue(), 'https://example.org/crew-handbook/en');
    const rings = [await settledFocusRing(page)];
    await pressUntilFocused(tm.editLink, { max: 1, rings });
    await page.keyboard.press('Enter');
    await expectVisible(lm.dialog);
    await expectFocused(lm.dialog);

    // In the dialog: its tab (External), the URL, Captcha, Close, Save, then round again.
    await pressUntilFocused(lm.save, { max: 6, rings });
    await pressUntilFocused(lm.url, { max: 6, rings });
    await page.keyboard.press('Control+a');
    await page.keyboard.type(url);
    await pressUntilFocused(lm.save, { max: 4, rings });
    await page.keyboard.press('Enter');
    await expectHidden(lm.dialog);
    await expectFocused(tm.editLink);
    await eventually(async () => assert.equal(await tm.value.inputValue(), url));
    assertRings(rings, 'the link editor and the Link Manager');
    assert.ok(rings.length >= 7, `the stops: ${rings.map((r) => r.name).join(', ')}`);

    assert.equal(await saveAndRead(page, login, 'LNK_HANDBOOK'), url);
  });

  it('Translation Manager: an image key chosen in the asset picker by keyboard, saved with Ctrl+S; every control shows a focus ring', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await openTranslations(page);
    const tm = translationManager(page);
    // A second PNG beside aircraft.png (the picker shows no SVG): the image to choose.
    const png = workspaceFile(e2e.server, login.profile.user.id, crew.id, 'assets/img/window.png');
    fs.copyFileSync(workspaceFile(e2e.server, login.profile.user.id, crew.id, 'assets/img/aircraft.png'), png);

    // Enter on the key: its field has the focus; Tab: Select Image; Enter opens the picker.
    await openKeyByKeyboard(page, 'img_aircraft', 'img_aircraft');
    assert.equal(await tm.value.inputValue(), 'assets/img/aircraft.png');
    const rings = [await settledFocusRing(page)];
    const selectImage = page.getByRole('button', { name: 'Select Image', exact: true });
    await pressUntilFocused(selectImage, { max: 1, rings });
    await page.keyboard.press('Enter');
    const picker = page.getByRole('dialog', { name: 'Select Image' });
    await expectVisible(picker);

    // The folders: Tab to the tree, the arrows to assets, Right opens it, Down to img, Enter
    // shows its images.
    const folders = picker.getByRole('tree', { name: 'Folders' });
    const folder = (name) => folders.locator(`[role="treeitem"][data-name="${name}"]`).getByRole('button', { name, exact: true });
    await pressUntilFocused(folder('Portal root'), { max: 2, rings });
    await pressUntilFocused(folder('assets'), { key: 'ArrowDown', max: 3, rings });
    await page.keyboard.press('ArrowRight');
    await expectVisible(folder('img'), { timeout: 15_000 });
    await pressUntilFocused(folder('img'), { key: 'ArrowDown', max: 4, rings });
    await page.keyboard.press('Enter');

    // The image: Tab to its card, Enter selects it; Tab to Select Asset, Enter.
    const card = explorer(picker).card('window.png');
    await expectVisible(card, { timeout: 15_000 });
    const toggle = card.getByRole('button');
    await pressUntilFocused(toggle, { max: 12, rings });
    await page.keyboard.press('Enter');
    await eventually(async () => assert.equal(await toggle.getAttribute('aria-pressed'), 'true'));
    const choose = picker.getByRole('button', { name: 'Select Asset', exact: true });
    await expectEnabled(choose);
    await pressUntilFocused(choose, { max: 12, rings });
    await page.keyboard.press('Enter');
    await expectHidden(picker);
    await expectFocused(selectImage);
    await eventually(async () => assert.equal(await tm.value.inputValue(), 'assets/img/window.png'));
    assertRings(rings, 'the image editor and the asset picker');

    assert.equal(await saveAndRead(page, login, 'IMG_AIRCRAFT'), 'assets/img/window.png');
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
