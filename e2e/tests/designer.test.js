// The page designer (issue 12; spec 2 §2 "Routes", "Page designer and sitemap", §4 "Pages and
// designer") on the demo Crew Portal (domain 1, portal 1: PORTAL_ENGINE, TRANSLATION mode):
// - the home page renders in the sandboxed preview frame; a click on the hero widget opens its
//   property form ('Hero banner properties', widget id home-hero); the Title's translation
//   edited in the 'Edit Translation' dialog shows in the frame while typing and is saved to
//   translations/en_GB.json; Alignment and the background image (asset selection dialog) change
//   the frame at once; 'Save changes' writes widgets/database/home-hero.json in the workspace and
//   the header's local changes count follows;
// - the weather page without its required airport: 'Failed to open page: Weather', Submit
//   empty says 'airport is required.', CDG opens it in the frame.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, signIn, apiClient, expectVisible, expectHidden, expectEnabled, expectDisabled, expectText, eventually, shell,
} from '../harness/index.js';
import { crewPortal } from '../harness/translations.js';
import {
  pageRoute, designer, openDesigner, expectFramePage, readWorkspaceFile, localChangePaths,
} from '../harness/pages.js';

const DOMAIN_ID = 1;
const LONG = 90_000;
// The header's local changes refresh every 10 s (a save refreshes them at once).
const REFRESH = 25_000;

describe('page designer', { timeout: 240_000 }, () => {
  const e2e = useE2E();
  let portalId;
  let branch;

  before(async () => {
    const token = (await e2e.server.apiLogin('admin', e2e.server.adminPassword)).id_token;
    ({ id: portalId, branch } = await crewPortal(apiClient(e2e.server, token), DOMAIN_ID));
    assert.equal(portalId, 1, 'the Crew Portal is portal 1');
  });

  it('edits the home hero: title translation and alignment live in the frame, image from the asset dialog, saved', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page, { remember: true });
    const userId = login.profile.user.id;
    const client = apiClient(e2e.server, login.id_token);
    const d = designer(page);
    const hero = d.frame.locator('[data-pw-widget="home-hero"]');

    await openDesigner(page, pageRoute(DOMAIN_ID, portalId, branch, 'home'), '[data-pw-widget="home-hero"] h1');
    await expectText(hero.locator('h1'), 'Welcome aboard');
    await expectVisible(d.pageButton('Home'));
    // The engine registered the widgets: their outlines are drawn over the frame.
    await expectVisible(d.outline('home-hero'));
    await expectVisible(d.outline('footer-links'));
    const before = await localChangePaths(client, DOMAIN_ID, portalId);
    assert.ok(!before.includes('widgets/database/home-hero.json'), `home-hero.json unchanged so far: ${before}`);
    const heroFile = readWorkspaceFile(e2e.server, userId, portalId, 'widgets/database/home-hero.json');
    await expectDisabled(d.saveChanges);

    // Nothing selected yet; a click on the hero in the frame opens its property form.
    await expectText(d.properties, 'Click a widget in the page to edit its properties.');
    await hero.locator('h1').click();
    const form = d.form('Hero banner');
    await expectVisible(form, { timeout: 15_000 });
    await expectText(form.getByTestId('designer-widget-id'), 'home-hero');
    await eventually(async () => assert.equal(await d.outline('home-hero').getAttribute('data-selected'), 'true'));

    // Alignment (a drop-down): the frame follows at once; the widget is dirty, Save turns on.
    const align = form.getByRole('combobox', { name: /^Alignment\b/ });
    await align.click();
    await page.getByRole('listbox', { name: 'Alignment' }).getByRole('option', { name: 'center', exact: true }).click();
    await eventually(async () => assert.match(await hero.locator('section').getAttribute('class'), /\bpw-align-center\b/));
    await eventually(async () => assert.equal(await d.outline('home-hero').getAttribute('data-dirty'), 'true'));
    await expectEnabled(d.saveChanges);

    // The title's translation: edited in the dialog, shown in the frame while typing, saved.
    const titleRow = form.locator('div', { has: page.getByRole('combobox', { name: 'Title', exact: true }) })
      .filter({ has: page.getByRole('button', { name: 'Edit Translation' }) }).last();
    await titleRow.getByRole('button', { name: 'Edit Translation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Translation' });
    await expectVisible(dialog);
    await expectText(dialog, 'txt_home_title');
    const value = dialog.getByRole('textbox', { name: 'Translation value' });
    await expectText(value, 'Welcome aboard');
    await value.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(', e2e crew');
    await expectText(hero.locator('h1'), 'Welcome aboard, e2e crew');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expectHidden(dialog);
    await eventually(() => {
      const en = JSON.parse(readWorkspaceFile(e2e.server, userId, portalId, 'translations/en_GB.json'));
      assert.equal(en.TXT_HOME_TITLE, 'Welcome aboard, e2e crew');
    });
    await expectText(hero.locator('h1'), 'Welcome aboard, e2e crew');

    // The background image: 'Select Image' → the asset selection dialog → assets/img/aircraft.png.
    const background = form.getByRole('group', { name: 'Background image' });
    await expectText(background.getByLabel('Asset path'), 'assets/img/sky.svg');
    assert.match(await hero.locator('section').getAttribute('style'), /sky\.svg/);
    await background.getByRole('button', { name: 'Select Image', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Select Image' });
    await expectVisible(picker);
    const folders = picker.getByRole('tree', { name: 'Folders' });
    await folders.locator('[role="treeitem"][data-name="assets"]').getByRole('button', { name: 'assets', exact: true }).click();
    await folders.locator('[role="treeitem"][data-name="img"]').getByRole('button', { name: 'img', exact: true }).click();
    const grid = picker.getByRole('list', { name: 'Assets' });
    await expectVisible(grid.getByRole('listitem', { name: 'aircraft.png', exact: true }), { timeout: 15_000 });
    assert.equal(await grid.getByRole('listitem', { name: 'sky.svg', exact: true }).count(), 0, 'the image picker hides SVGs');
    await grid.getByRole('checkbox', { name: 'Select aircraft.png' }).click();
    await picker.getByRole('button', { name: 'Select Asset', exact: true }).click();
    await expectHidden(picker);
    await expectText(background.getByLabel('Asset path'), 'assets/img/aircraft.png');
    await eventually(async () => assert.match(await hero.locator('section').getAttribute('style'), /aircraft\.png/));
    // The image is served to the frame from the workspace.
    await eventually(async () => {
      const loaded = await hero.locator('section').evaluate((el) => {
        const url = getComputedStyle(el).backgroundImage.replace(/^url\("?|"?\)$/g, '');
        return new Promise((resolve) => {
          const img = new Image();
          img.onload = () => resolve(img.naturalWidth > 0);
          img.onerror = () => resolve(false);
          img.src = url;
        });
      });
      assert.equal(loaded, true, 'aircraft.png loads in the frame');
    });
    assert.equal(readWorkspaceFile(e2e.server, userId, portalId, 'widgets/database/home-hero.json'), heroFile, 'nothing written before Save changes');

    // Save changes: one batch; the file on disk, the local changes.
    await d.saveChanges.click();
    await expectVisible(d.savedToast);
    await expectDisabled(d.saveChanges);
    const saved = JSON.parse(readWorkspaceFile(e2e.server, userId, portalId, 'widgets/database/home-hero.json'));
    assert.equal(saved.type, 'hero');
    assert.equal(saved.data.background, 'assets/img/aircraft.png');
    assert.equal(saved.data.align, 'center');
    assert.equal(saved.data.title, 'TXT_HOME_TITLE', 'the title key is kept (its value was edited)');
    assert.deepEqual(saved.mediaQueries, JSON.parse(heroFile).mediaQueries, 'the media queries are kept');
    const after = await localChangePaths(client, DOMAIN_ID, portalId);
    assert.ok(after.includes('widgets/database/home-hero.json'), `home-hero.json is a local change: ${after}`);
    assert.ok(after.includes('translations/en_GB.json'), `en_GB.json is a local change: ${after}`);
    assert.ok(after.length > before.length, `the count rose: ${before} → ${after}`);
    await expectVisible(shell(page).localChanges(after.length), { timeout: REFRESH });

    // The frame still shows the saved edits after a fresh load of the page.
    await page.reload();
    await openDesigner(page, pageRoute(DOMAIN_ID, portalId, branch, 'home'), '[data-pw-widget="home-hero"] h1');
    await expectText(hero.locator('h1'), 'Welcome aboard, e2e crew');
    assert.match(await hero.locator('section').getAttribute('class'), /\bpw-align-center\b/);
    assert.match(await hero.locator('section').getAttribute('style'), /aircraft\.png/);
  });

  it('asks for the missing airport of the weather page, then renders it', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    const d = designer(page);
    await openDesigner(page, pageRoute(DOMAIN_ID, portalId, branch, 'weather'));

    const missing = d.missing('Weather');
    await expectVisible(missing, { timeout: 20_000 });
    await expectVisible(missing.getByRole('heading', { name: 'Failed to open page: Weather' }));
    await expectText(missing, 'required parameters are missing');
    const airport = missing.getByRole('textbox', { name: 'airport' });
    const unit = missing.getByRole('textbox', { name: 'unit' });
    await expectVisible(airport);
    await expectVisible(unit);
    assert.equal(await airport.getAttribute('required'), '', 'airport is required');
    assert.equal(await unit.getAttribute('required'), null, 'unit is optional');
    // The frame shows nothing of the weather page yet.
    assert.equal(await d.frame.locator('[data-pw-param="airport"]').count(), 0);

    const submit = missing.getByRole('button', { name: 'Submit', exact: true });
    await submit.click();
    await expectText(missing, 'airport is required.');
    await expectDisabled(submit);
    assert.equal(await missing.getByText('unit is required.').count(), 0, 'the optional unit is not required');

    await airport.fill('CDG');
    await expectEnabled(submit);
    await submit.click();
    await expectHidden(missing);
    await expectFramePage(page, '[data-pw-param="airport"]');
    await expectText(d.frame.locator('[data-pw-param="airport"]'), 'CDG');
    await expectText(d.frame.locator('main'), 'Weather');
    await expectVisible(d.frame.locator('[data-pw-widget="weather-table"]'));
  });
});
