// The Translation Manager (spec 2 §2 "Translation manager", §4 "Translations", §5, §8) against the
// real server and the demo Crew Portal (domain 1, portal 1: TRANSLATION mode, en_GB default,
// fr_FR, ar_SA; translations/<lang>.json):
// - reached from the side nav's Manage Portal menu ('Manage Translation');
// - Add key: the new key is selected and marked 'This key is unsaved'; a value typed in en_GB;
//   switching the Language asks 'Unsaved Changes' — No stays on en_GB with the draft, Yes saves
//   and switches; the French value; ar_SA's editor is right-to-left; Save; the key's status icon
//   goes from incomplete to complete in each language; the three files are 2-space indented
//   JSON with the upper-case key; the header counts three local changes and commits them;
// - without translation_write: no Add/Delete key, editors read-only (a link key without 'Edit
//   link'), no enabled Save, the Key type filter, and a language switch after an edit attempt
//   asks nothing;
// - Add key refuses a duplicate (compared upper case) and a key without txt/img/lnk (in the
//   dialog and as a warning toast); Delete key asks first; leaving the route with the unsaved
//   deletion asks too (No stays); Cancel restores the key; Spell check sets the editor's
//   spellcheck and is kept in localStorage; a saved deletion leaves no language file with it.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E, apiSession, grantGroup, signIn, expectVisible, expectHidden, expectURL, expectDisabled, expectEnabled,
  expectText, expectCount, eventually, shell,
} from '../harness/index.js';
import {
  crewPortal, translationsRoute, portalDashboardRoute, translationManager, expectTranslationManager, expectLanguage,
  chooseLanguage, selectKey, addKey, expectKeyStatus, typeValue, expectSaved,
} from '../harness/translations.js';

const READER = { username: 'tara', password: 'tara-pass-1', firstName: 'Tara', lastName: 'Reader', email: 'tara@example.test' };
const DOMAIN_ID = 1;
const LONG = 120_000;
// The header's local changes refresh every 10 s (a save refreshes them at once).
const REFRESH = 25_000;
const LANGUAGES = ['en_GB', 'fr_FR', 'ar_SA'];

describe('translation manager', { timeout: 300_000 }, () => {
  const e2e = useE2E({ server: { users: [READER] } });
  let portalId;
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    ({ id: portalId, branch } = await crewPortal(admin, DOMAIN_ID));
    assert.equal(portalId, 1, 'the Crew Portal is portal 1');
    await grantGroup(
      admin,
      DOMAIN_ID,
      'Translation readers',
      ['portal_read', 'branch_read', 'asset_read', 'translation_read'],
      [READER.username],
    );
  });

  const translationFile = (userId, lang) =>
    path.join(e2e.server.dataDir, 'workspaces', String(userId), String(portalId), 'translations', `${lang}.json`);

  /** Goes to a hash route without a reload (a reload would sign out). */
  async function go(page, route) {
    await page.evaluate((hash) => { window.location.hash = hash; }, route.replace(/^\/#/, '#'));
  }

  it('adds a key, prompts on a language switch, saves every language, statuses follow, commits', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const adminId = login.profile.user.id;
    const tm = translationManager(page);

    // The Manage Portal menu of the side nav opens the manager.
    await go(page, portalDashboardRoute(DOMAIN_ID, portalId, branch));
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }), { timeout: 20_000 });
    const nav = page.getByRole('navigation', { name: 'Side navigation' });
    await nav.getByRole('button', { name: /Manage Portal/ }).click();
    await page.getByRole('menuitem', { name: 'Manage Translation', exact: true }).click();
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/[^/]+\/en_GB\/translations$/);
    await expectTranslationManager(page);
    await expectVisible(tm.currentLanguageHeading);
    await expectLanguage(page, 'en_GB');
    await expectText(tm.language, '(default)');
    await expectVisible(shell(page).localChanges(0), { timeout: REFRESH });
    // Pristine: Save and Cancel are off.
    await expectDisabled(tm.save);
    await expectDisabled(tm.cancel);

    // Add a key: selected, unsaved, shown lower case; its default value is still empty.
    await addKey(page, 'txt_e2e_greeting');
    await expectVisible(page.getByRole('status').filter({ hasText: "Translation key 'txt_e2e_greeting' was added successfully" }));
    await tm.search.fill('e2e');
    await expectVisible(tm.key('txt_e2e_greeting'));
    assert.equal(await tm.key('txt_e2e_greeting').getAttribute('aria-selected'), 'true', 'the new key is selected');
    await expectVisible(tm.unsavedMark('txt_e2e_greeting'));
    await expectKeyStatus(page, 'txt_e2e_greeting', 'INCOMPLETE', 'exclamation');
    await expectVisible(tm.key('txt_e2e_greeting').getByRole('img', { name: 'Translation value is missing in the default language' }));
    await expectEnabled(tm.save);

    // en_GB: the editor is left-to-right and takes the value.
    assert.equal(await tm.value.getAttribute('dir'), 'ltr');
    await typeValue(page, 'Hello crew');

    // A switch with unsaved changes asks; No stays on en_GB with the draft.
    await chooseLanguage(page, 'fr_FR');
    await expectVisible(tm.prompt);
    await expectText(tm.prompt, 'Would you like to save your changes and navigate away?');
    await tm.prompt.getByRole('button', { name: 'No', exact: true }).click();
    await expectHidden(tm.prompt);
    await expectLanguage(page, 'en_GB');
    await expectText(tm.value, 'Hello crew');
    await expectVisible(tm.unsavedMark('txt_e2e_greeting'));
    assert.equal(fs.readFileSync(translationFile(adminId, 'en_GB'), 'utf8').includes('TXT_E2E_GREETING'), false, 'nothing saved after No');

    // Yes saves every language, then switches.
    await chooseLanguage(page, 'fr_FR');
    await expectVisible(tm.prompt);
    const sent = await expectSaved(page, () => tm.prompt.getByRole('button', { name: 'Yes', exact: true }).click());
    assert.deepEqual(Object.keys(sent.data).sort(), [...LANGUAGES].sort(), 'the save sends every language');
    assert.equal(sent.data.en_GB.TXT_E2E_GREETING, 'Hello crew');
    await expectLanguage(page, 'fr_FR');
    await expectURL(page, /\/translations$/);
    await expectHidden(tm.unsavedMark('txt_e2e_greeting'));
    await eventually(() => {
      const saved = JSON.parse(fs.readFileSync(translationFile(adminId, 'en_GB'), 'utf8'));
      assert.equal(saved.TXT_E2E_GREETING, 'Hello crew');
    });
    assert.equal(JSON.parse(fs.readFileSync(translationFile(adminId, 'fr_FR'), 'utf8')).TXT_E2E_GREETING, '', 'fr_FR holds the key, empty');

    // fr_FR: the key is still to translate; the default value is shown read-only beside it.
    await selectKey(page, 'txt_e2e_greeting');
    await expectKeyStatus(page, 'txt_e2e_greeting', 'INCOMPLETE', 'cross');
    await expectVisible(tm.key('txt_e2e_greeting').getByRole('img', { name: 'Translation is still required for this key' }));
    await expectVisible(tm.defaultValue);
    await expectText(tm.defaultValue, 'Hello crew');
    assert.equal(await tm.defaultValue.getAttribute('aria-readonly'), 'true', 'the default-language value is read-only');
    assert.equal(await tm.defaultValue.getAttribute('contenteditable'), 'false');
    assert.equal(await tm.value.getAttribute('dir'), 'ltr');
    await expectDisabled(tm.save);
    await typeValue(page, 'Bonjour équipage');
    await expectEnabled(tm.save);

    // ar_SA (Yes again): the editor is right-to-left.
    await chooseLanguage(page, 'ar_SA');
    await expectVisible(tm.prompt);
    await expectSaved(page, () => tm.prompt.getByRole('button', { name: 'Yes', exact: true }).click());
    await expectLanguage(page, 'ar_SA');
    await expectKeyStatus(page, 'txt_e2e_greeting', 'INCOMPLETE', 'cross');
    await eventually(async () => assert.equal(await tm.value.getAttribute('dir'), 'rtl', 'ar_SA is edited right-to-left'));
    assert.equal(await tm.value.getAttribute('spellcheck'), 'true');
    assert.equal(await tm.defaultValue.getAttribute('dir'), 'ltr', 'the en_GB value beside it stays left-to-right');
    await typeValue(page, 'مرحبا بالطاقم');
    await expectSaved(page, () => tm.save.click());
    await expectDisabled(tm.save);
    await expectKeyStatus(page, 'txt_e2e_greeting', 'COMPLETED', 'check');

    // No prompt without changes; complete in every language now.
    await chooseLanguage(page, 'fr_FR');
    await expectLanguage(page, 'fr_FR');
    await expectKeyStatus(page, 'txt_e2e_greeting', 'COMPLETED', 'check');
    await chooseLanguage(page, 'en_GB');
    await expectLanguage(page, 'en_GB');
    await expectKeyStatus(page, 'txt_e2e_greeting', 'COMPLETED', 'check');
    await expectVisible(tm.key('txt_e2e_greeting').getByRole('img', { name: 'Translation is complete' }));
    assert.equal(await tm.prompt.count(), 0, 'no prompt without unsaved changes');

    // On disk: each file is 2-space indented JSON with the upper-case key.
    const expected = { en_GB: 'Hello crew', fr_FR: 'Bonjour équipage', ar_SA: 'مرحبا بالطاقم' };
    const texts = {};
    for (const lang of LANGUAGES) {
      const text = fs.readFileSync(translationFile(adminId, lang), 'utf8');
      texts[lang] = text;
      const data = JSON.parse(text);
      assert.equal(text, `${JSON.stringify(data, null, 2)}\n`, `${lang}.json is 2-space indented JSON with a trailing newline`);
      assert.equal(data.TXT_E2E_GREETING, expected[lang], `${lang}.json value`);
      assert.ok(!('txt_e2e_greeting' in data), `${lang}.json has no lower-case key`);
      assert.match(text, /\n {2}"TXT_E2E_GREETING": /, `${lang}.json: the key indented by two spaces`);
      assert.equal(data.TXT_HOME_TITLE !== undefined, true, `${lang}.json keeps the other keys`);
    }

    // The header counts the three files; commit them.
    await expectVisible(shell(page).localChanges(3), { timeout: REFRESH });
    await shell(page).localChanges(3).click();
    const panel = page.getByRole('region', { name: 'Local changes' });
    const files = panel.getByRole('list', { name: 'Uncommitted files' });
    for (const lang of LANGUAGES) await expectText(files, `${lang}.json`);
    await panel.getByLabel('Commit message').fill('Add the e2e greeting');
    const submit = panel.getByRole('button', { name: 'Submit' });
    await expectEnabled(submit);
    await submit.click();
    await expectHidden(panel);
    await expectVisible(shell(page).localChanges(0), { timeout: REFRESH });
    for (const lang of LANGUAGES) assert.equal(fs.readFileSync(translationFile(adminId, lang), 'utf8'), texts[lang], `${lang}.json as saved`);
  });

  it('without translation_write: read-only editors, no Add/Delete key, no enabled Save, no prompt', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page, READER);
    const tm = translationManager(page);
    await go(page, translationsRoute(DOMAIN_ID, portalId, branch, 'en_GB'));
    await expectTranslationManager(page);
    await expectLanguage(page, 'en_GB');

    assert.equal(await tm.addKey.count(), 0, 'no Add key');
    assert.equal(await tm.deleteKey.count(), 0, 'no Delete key');

    await selectKey(page, 'txt_home_title');
    await expectText(tm.value, 'Welcome aboard');
    assert.equal(await tm.value.getAttribute('aria-readonly'), 'true', 'the value is read-only');
    assert.equal(await tm.value.getAttribute('contenteditable'), 'false', 'the value cannot be edited');
    assert.equal(await page.getByRole('toolbar', { name: 'Translation value formatting' }).count(), 0, 'no formatting toolbar');
    // An edit attempt changes nothing.
    await tm.value.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' typed');
    assert.equal((await tm.value.innerText()).trim(), 'Welcome aboard', 'typing does not change the value');
    assert.ok((await tm.save.count()) === 0 || (await tm.save.isDisabled()), 'no enabled Save');

    // The Key type filter: the link keys only.
    await tm.search.fill('');
    await tm.keyType.click();
    await page.getByRole('listbox', { name: 'Key type' }).getByRole('option', { name: 'Link (lnk)' }).click();
    await expectText(tm.keyType, 'Link (lnk)');
    await eventually(async () => {
      const names = await tm.keys.getByRole('option').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
      assert.deepEqual(names.sort(), ['lnk_duty_free', 'lnk_handbook', 'lnk_home_button'], 'the link keys');
    });

    // A link key: a read-only input, no Edit link.
    await selectKey(page, 'lnk_home_button');
    assert.equal(await tm.value.inputValue(), '#/flight-info');
    assert.equal(await tm.value.getAttribute('readonly'), '', 'the link input is read-only');
    assert.equal(await tm.editLink.count(), 0, 'no Edit link');

    // A switch after the edit attempt asks nothing.
    await tm.keyType.click();
    await page.getByRole('listbox', { name: 'Key type' }).getByRole('option', { name: 'All types' }).click();
    await selectKey(page, 'txt_home_title');
    await tm.value.click();
    await page.keyboard.type('x');
    await chooseLanguage(page, 'fr_FR');
    await expectLanguage(page, 'fr_FR');
    assert.equal(await tm.prompt.count(), 0, 'no Unsaved Changes prompt');
    await expectText(tm.value, 'Bienvenue à bord');
    assert.equal(await tm.value.getAttribute('aria-readonly'), 'true');
    await expectText(tm.defaultValue, 'Welcome aboard');
    assert.ok((await tm.save.count()) === 0 || (await tm.save.isDisabled()), 'no enabled Save in fr_FR');
    assert.equal(await tm.prompt.count(), 0, 'still no prompt');
    // Nothing written to this user's workspace.
    const file = path.join(e2e.server.dataDir, 'workspaces', String(login.profile.user.id), String(portalId), 'translations', 'fr_FR.json');
    if (fs.existsSync(file)) assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).TXT_HOME_TITLE, 'Bienvenue à bord');
  });

  it('Add key refuses a duplicate and an unknown prefix; Delete key, Cancel restores, Save removes it everywhere', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const adminId = login.profile.user.id;
    const tm = translationManager(page);
    await go(page, translationsRoute(DOMAIN_ID, portalId, branch, 'en_GB'));
    await expectTranslationManager(page);
    await expectDisabled(tm.save);

    // A duplicate (compared upper case) and a key without txt/img/lnk are refused; the dialog stays.
    await tm.addKey.click();
    await expectVisible(tm.addDialog);
    const name = tm.addDialog.getByRole('textbox', { name: /Key name/ });
    const add = tm.addDialog.getByRole('button', { name: 'Add', exact: true });
    await name.fill('TXT_Home_Title');
    await add.click();
    await expectText(tm.addDialog.getByRole('alert'), "Translation key 'txt_home_title' already exists");
    // …and as a warning toast (outside the modal dialog, so hidden from the accessibility tree).
    await expectCount(page.getByRole('alert', { includeHidden: true }).filter({ hasText: "Translation key 'txt_home_title' already exists" }), 2);
    await name.fill('welcome');
    await add.click();
    await expectText(tm.addDialog.getByRole('alert'), 'There is no translation key for this widget');
    await expectCount(page.getByRole('alert', { includeHidden: true }).filter({ hasText: 'There is no translation key for this widget' }), 2);
    await tm.addDialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectHidden(tm.addDialog);
    await expectDisabled(tm.save);

    // Delete the key the first test committed: asked first, then gone from the list (unsaved).
    await selectKey(page, 'txt_e2e_greeting');
    await expectEnabled(tm.deleteKey);
    await tm.deleteKey.click();
    const confirm = page.getByRole('dialog', { name: 'Delete Translation Key' });
    await expectText(confirm, "Delete the translation key 'txt_e2e_greeting' from every language?");
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectHidden(confirm);
    await expectVisible(page.getByRole('status').filter({ hasText: "Translation key 'txt_e2e_greeting' was deleted successfully" }));
    await expectHidden(tm.key('txt_e2e_greeting'));
    await expectVisible(page.getByText('No translation keys match.'));
    await expectDisabled(tm.deleteKey);
    await expectEnabled(tm.save);

    // Leaving the route with the unsaved deletion asks too; No stays.
    const nav = page.getByRole('navigation', { name: 'Side navigation' });
    await nav.getByRole('button', { name: /Manage Portal/ }).click();
    await page.getByRole('menuitem', { name: 'Dashboard', exact: true }).click();
    await expectVisible(tm.prompt);
    await tm.prompt.getByRole('button', { name: 'No', exact: true }).click();
    await expectHidden(tm.prompt);
    await expectURL(page, /\/en_GB\/translations$/);
    await expectVisible(tm.heading);
    await expectEnabled(tm.save);

    // Cancel drops the draft: the key is back.
    await tm.cancel.click();
    await expectVisible(tm.key('txt_e2e_greeting'));
    await expectDisabled(tm.save);

    // Spell check: off turns the editor's spellcheck off, and the choice is kept locally.
    await selectKey(page, 'txt_e2e_greeting');
    assert.equal(await tm.value.getAttribute('spellcheck'), 'true');
    await tm.spellCheck.uncheck();
    await eventually(async () => assert.equal(await tm.value.getAttribute('spellcheck'), 'false'));
    assert.equal(await page.evaluate(() => localStorage.getItem('portalwright.translations.spellCheck')), 'false');
    await tm.spellCheck.check();
    await eventually(async () => assert.equal(await tm.value.getAttribute('spellcheck'), 'true'));

    // Deleted again and saved: no language file holds it.
    await tm.deleteKey.click();
    await page.getByRole('dialog', { name: 'Delete Translation Key' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expectHidden(tm.key('txt_e2e_greeting'));
    await expectSaved(page, () => tm.save.click());
    await expectDisabled(tm.save);
    for (const lang of LANGUAGES) {
      const text = fs.readFileSync(translationFile(adminId, lang), 'utf8');
      const data = JSON.parse(text);
      assert.equal('TXT_E2E_GREETING' in data, false, `${lang}.json no longer holds the key`);
      assert.equal(text, `${JSON.stringify(data, null, 2)}\n`, `${lang}.json stays 2-space indented`);
    }
    await expectVisible(shell(page).localChanges(3), { timeout: REFRESH });
  });
});
