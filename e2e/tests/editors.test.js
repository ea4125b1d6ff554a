// The file editors opened from the File Explorer (spec 2 §2 "Asset manager", "JSON editor", §4,
// §5, §6) against the real server and the demo 'Passenger Portal' (domain 1, portal 2):
// - the JSON editor on content/en_GB/menu.json (a form built from menu.json.schema): the
//   menu's fields; Save off while pristine; reorder and add array items; a cleared required
//   field shows the form warning and turns Save off; Save writes 2-space indented JSON to the
//   workspace, the header counts the local change, and a commit through the UI clears it;
// - the source editor (Ace) on a CSS file: 'Editing: <path>', Save off until the text changes,
//   Save writes the new text to the workspace;
// - with code_read but no code_write: the CSS file opens read-only, without Save.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E, apiSession, grantGroup, signIn, expectVisible, expectHidden, expectURL, expectDisabled, expectEnabled,
  expectText, eventually,
  explorer, explorerRoute, passengerPortal, shell,
} from '../harness/index.js';

const CODE_READER = { username: 'cora', password: 'cora-pass-1', firstName: 'Cora', lastName: 'Reader', email: 'cora@example.test' };
const DOMAIN_ID = 1;
const PORTAL_ID = 2; // the Passenger Portal
const LONG = 150_000;
// The header's local changes refresh every 10 s.
const REFRESH = 25_000;
const FORM_ERRORS = 'Please note that there are validation errors on the form';
const SAVED = 'Changes saved to your workspace.';

describe('file editors', { timeout: 420_000 }, () => {
  const e2e = useE2E({ server: { users: [CODE_READER] } });
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    const passenger = await passengerPortal(admin, DOMAIN_ID);
    assert.equal(passenger.id, PORTAL_ID, 'the Passenger Portal is portal 2');
    branch = passenger.branch;
    await grantGroup(
      admin,
      DOMAIN_ID,
      'Code readers',
      ['portal_read', 'branch_read', 'asset_read', 'code_read'],
      [CODE_READER.username],
    );
  });

  const saveButton = (page) => page.getByRole('button', { name: 'Save', exact: true });
  const savedToast = (page) => page.getByRole('status').filter({ hasText: SAVED });
  const workspaceOf = (userId) => path.join(e2e.server.dataDir, 'workspaces', String(userId), String(PORTAL_ID));

  /** Opens the File Explorer at a folder and waits for its assets (or the empty folder). */
  async function openExplorer(page, folder = '/') {
    await page.goto(explorerRoute(DOMAIN_ID, PORTAL_ID, branch, folder));
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 20_000 });
    await expectVisible(explorer(page).tree, { timeout: 20_000 });
    await eventually(async () => {
      assert.ok((await explorer(page).grid.count()) + (await page.getByText('This folder is empty.').count()) > 0, 'the folder loaded');
    }, { timeout: 20_000 });
  }

  /**
   * Puts a CSS file into the user's workspace (which the explorer opened) under assets/, then
   * opens assets/ in the tree (not loaded so far; a reload would sign out) and the file's
   * source editor.
   */
  async function openCssInSourceEditor(page, userId, name, text) {
    const file = path.join(workspaceOf(userId), 'assets', name);
    assert.ok(fs.existsSync(path.dirname(file)), `${path.dirname(file)} exists`);
    fs.writeFileSync(file, text);
    await explorer(page).treeItem('assets').getByRole('button', { name: 'assets', exact: true }).click();
    await expectURL(page, /file-explorer\?path=%2Fassets$/);
    await expectVisible(explorer(page).card(name), { timeout: 20_000 });
    const edit = page.getByRole('button', { name: `Edit ${name}`, exact: true });
    await expectEnabled(edit);
    await edit.click();
    await expectURL(page, new RegExp(`[?&]edit=${encodeURIComponent(`/assets/${name}`).replace(/\./g, '\\.')}(&|$)`));
    await expectURL(page, /[?&]mode=source(&|$)/);
    await expectVisible(page.getByRole('heading', { name: `Editing: /assets/${name}` }), { timeout: 20_000 });
    // Ace is its own chunk: wait for the editor with the file's text.
    const content = page.locator('.ace_content');
    await expectVisible(content, { timeout: 20_000 });
    await expectText(content, text.split('\n')[0].trim(), { timeout: 20_000 });
    return file;
  }

  it('JSON editor on the passenger menu: reorder, add, validation, save, local change, commit', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const adminId = login.profile.user.id;
    await openExplorer(page, '/content/en_GB');
    await expectVisible(shell(page).localChanges(0), { timeout: REFRESH });

    const jsonEdit = page.getByRole('button', { name: 'JSON Edit menu.json', exact: true });
    await expectEnabled(jsonEdit);
    await jsonEdit.click();
    await expectURL(page, /[?&]edit=%2Fcontent%2Fen_GB%2Fmenu\.json(&|$)/);
    await expectURL(page, /[?&]mode=json(&|$)/);
    await expectVisible(page.getByRole('heading', { name: 'Editing: /content/en_GB/menu.json' }));

    // The form from the schema, filled with the menu (rjsf ids: root_<path>).
    const field = (id) => page.locator(`#root_${id}`);
    await expectVisible(field('title'), { timeout: 30_000 });
    assert.equal(await field('title').inputValue(), 'Menu');
    await expectText(page.getByRole('combobox').filter({ hasText: 'EUR' }).first(), 'EUR');
    await expectVisible(page.getByText('Menu sections', { exact: true }).first());
    assert.equal(await field('sections_0_name').inputValue(), 'Hot drinks');
    assert.equal(await field('sections_1_name').inputValue(), 'Snacks');
    assert.equal(await field('sections_0_items_0_name').inputValue(), 'Coffee');
    assert.equal(await field('sections_0_items_1_name').inputValue(), 'Tea');
    assert.equal(await field('sections_1_items_1_price').inputValue(), '7.5');
    await expectVisible(page.getByText("Saved changes appear in your local changes (the header's Local changes menu)"));

    // Pristine: Save is off, no form warning.
    const save = saveButton(page);
    await expectVisible(save);
    await expectDisabled(save);
    assert.equal(await page.getByText(FORM_ERRORS).count(), 0, 'no form warning while pristine');

    // Reorder: Coffee moves below Tea. Save on.
    const button = (id, name) => page.getByRole('button', { name, exact: true }).and(page.locator(`#root_${id}`));
    await button('sections_0_items_0__moveDown', 'Move down').click();
    await eventually(async () => assert.equal(await field('sections_0_items_0_name').inputValue(), 'Tea'));
    assert.equal(await field('sections_0_items_1_name').inputValue(), 'Coffee');
    // The reordered menu is valid: no form warning (the validator must run under the app's CSP).
    assert.equal(await page.getByText(FORM_ERRORS).count(), 0, 'no form warning after a valid reorder');
    await expectEnabled(save);

    // Add an item to the Snacks: empty, its required name and price make the form invalid.
    await button('sections_1_items__add', 'Add Item').click();
    await expectVisible(field('sections_1_items_2_name'));
    await expectVisible(page.getByText(FORM_ERRORS));
    await expectDisabled(save);
    await field('sections_1_items_2_name').fill('Fruit salad');
    await field('sections_1_items_2_price').fill('4.25');
    await expectHidden(page.getByText(FORM_ERRORS));
    await expectEnabled(save);
    // …and move it up, between the two others.
    await button('sections_1_items_2__moveUp', 'Move up').click();
    await eventually(async () => assert.equal(await field('sections_1_items_1_name').inputValue(), 'Fruit salad'));
    assert.equal(await field('sections_1_items_2_name').inputValue(), 'Chicken wrap');
    await expectEnabled(save);

    // A required section name (minLength 1) cleared: the form warning, Save off; fixed: on.
    await field('sections_0_name').fill('');
    await expectVisible(page.getByText(FORM_ERRORS));
    await expectDisabled(save);
    await field('sections_0_name').fill('Hot drinks');
    await expectHidden(page.getByText(FORM_ERRORS));
    await expectEnabled(save);

    await save.click();
    await expectVisible(savedToast(page));
    await expectDisabled(save); // the saved form is the new baseline

    // On disk: 2-space indented JSON (the file's layout) with the edits.
    const file = path.join(workspaceOf(adminId), 'content', 'en_GB', 'menu.json');
    const text = fs.readFileSync(file, 'utf8');
    const data = JSON.parse(text);
    assert.equal(text, `${JSON.stringify(data, null, 2)}\n`, 'menu.json is 2-space indented JSON with a trailing newline');
    assert.equal(data.title, 'Menu');
    assert.equal(data.currency, 'EUR');
    assert.deepEqual(data.sections.map((s) => s.name), ['Hot drinks', 'Snacks']);
    assert.deepEqual(data.sections[0].items.map((i) => i.name), ['Tea', 'Coffee']);
    assert.deepEqual(data.sections[1].items.map((i) => i.name), ['Cheese sandwich', 'Fruit salad', 'Chicken wrap']);
    assert.deepEqual(data.sections[1].items[1], { name: 'Fruit salad', price: 4.25, vegetarian: false });
    assert.deepEqual(data.sections[0].items[1], { name: 'Coffee', description: 'Freshly brewed.', price: 3.5, vegetarian: true });

    // The header counts the change; commit it through the local changes menu.
    await expectVisible(shell(page).localChanges(1), { timeout: REFRESH });
    await shell(page).localChanges(1).click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    await expectText(panel.getByRole('list', { name: 'Uncommitted files' }), 'menu.json');
    const messageBox = panel.getByLabel('Commit message');
    const submit = panel.getByRole('button', { name: 'Submit' });
    await messageBox.fill('Edit the menu');
    await expectEnabled(submit);
    await submit.click();
    await expectHidden(panel);
    await expectVisible(shell(page).localChanges(0), { timeout: REFRESH });
    // The committed file stays as saved.
    assert.equal(fs.readFileSync(file, 'utf8'), text);
  });

  it('source editor on a CSS file: Save off until the text changes, then saved to disk', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await openExplorer(page, '/'); // opens the portal: the workspace exists
    const original = 'body {\n  color: navy;\n}\n';
    const file = await openCssInSourceEditor(page, login.profile.user.id, 'e2e-editor.css', original);

    // Admin has code:w and the portal is active: Save shown, off while the text is unchanged.
    const save = saveButton(page);
    await expectVisible(save);
    await expectDisabled(save);
    await expectVisible(page.getByRole('button', { name: 'Cancel', exact: true }));
    await expectVisible(page.getByRole('textbox', { name: 'Source of /assets/e2e-editor.css' }));

    // Type at the end of the source.
    await page.locator('.ace_content').click();
    await page.keyboard.press('Control+End');
    const added = '/* edited in e2e */';
    await page.keyboard.type(added);
    await expectText(page.locator('.ace_content'), added);
    await expectEnabled(save);

    await save.click();
    await expectVisible(savedToast(page));
    await expectDisabled(save);
    const saved = fs.readFileSync(file, 'utf8');
    assert.ok(saved.startsWith(original), `the original text is kept: ${JSON.stringify(saved)}`);
    assert.ok(saved.includes(added), `the new text is on disk: ${JSON.stringify(saved)}`);
    assert.equal(saved, `${original}${added}`, 'exactly the typed text was added');
  });

  it('with code_read but no code_write: the CSS file opens read-only, without Save', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page, CODE_READER);
    await openExplorer(page, '/'); // opens the portal: this user's workspace exists
    const original = 'body {\n  color: navy;\n}\n';
    const file = await openCssInSourceEditor(page, login.profile.user.id, 'e2e-editor.css', original);

    await expectVisible(page.getByRole('button', { name: 'Cancel', exact: true }));
    assert.equal(await saveButton(page).count(), 0, 'no Save without code_write');
    // Typing changes nothing: the editor is read-only.
    await page.locator('.ace_content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('x-typed');
    assert.equal(await page.locator('.ace_content').innerText().then((t) => t.includes('x-typed')), false, 'read-only source');
    assert.equal(await saveButton(page).count(), 0, 'still no Save');
    assert.equal(fs.readFileSync(file, 'utf8'), original);

    // Cancel goes back to the folder.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectURL(page, /file-explorer\?path=%2Fassets$/);
    await expectVisible(explorer(page).card('e2e-editor.css'));
  });
});
