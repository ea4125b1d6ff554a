// The Translation Manager and the Link Manager from the tests (web/src/features/translations,
// web/src/features/widgets/links): their routes and accessible locators, and small flows on them.
// Shared by translations.test.js and links.test.js; the demo Crew Portal (domain 1, portal 1) is
// a PORTAL_ENGINE portal in TRANSLATION mode with en_GB (default), fr_FR and ar_SA.
import assert from 'node:assert/strict';
import { expectHidden, expectText, expectVisible, eventually } from './expect.js';

/** …/branch/<branch>/<lang>/translations ('/' in a branch travels as ':'). */
export const translationsRoute = (domainId, portalId, branch, lang = 'en_GB') =>
  `/#/domain/${domainId}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/${lang}/translations`;

/** The portal's dashboard route, from which the side nav's Manage Portal menu opens. */
export const portalDashboardRoute = (domainId, portalId, branch, lang = 'en_GB') =>
  `/#/domain/${domainId}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/${lang}/dashboard`;

/** The Crew Portal of the demo domain: {id, branch} (checked through the API). */
export async function crewPortal(client, domainId = 1) {
  const portals = await client.ok('GET', `portal/${domainId}`);
  const crew = (Array.isArray(portals) ? portals : []).find((p) => p.name === 'Crew Portal');
  assert.ok(crew, `Crew Portal in GET portal/${domainId}: ${JSON.stringify(portals).slice(0, 500)}`);
  return { id: crew.id, branch: crew.activeBranch || 'master' };
}

/** Locators of the Translation Manager. */
export const translationManager = (page) => {
  const keys = page.getByRole('listbox', { name: 'Translation keys' });
  const key = (shown) => keys.getByRole('option', { name: shown, exact: true });
  return {
    heading: page.getByRole('heading', { name: 'Translation Manager', level: 1 }),
    currentLanguageHeading: page.getByRole('heading', { name: 'Current Language' }),
    /** The MUI select: its name is its label followed by the chosen option. */
    language: page.getByRole('combobox', { name: /^Language\b/ }),
    languageOption: (code) => page.getByRole('listbox', { name: 'Language' }).getByRole('option', { name: new RegExp(`\\b${code}\\b`) }),
    search: page.getByRole('searchbox', { name: 'Search keys' }),
    keyType: page.getByRole('combobox', { name: /^Key type\b/ }),
    status: page.getByRole('combobox', { name: /^Status\b/ }),
    addKey: page.getByRole('button', { name: 'Add key', exact: true }),
    deleteKey: page.getByRole('button', { name: 'Delete key', exact: true }),
    addDialog: page.getByRole('dialog', { name: 'Add Translation Key' }),
    keys,
    /** A key's option (named by the lower-case key). */
    key,
    /** The status icon of a key's option (data-icon, data-status). */
    statusIcon: (shown) => key(shown).locator('[data-icon][data-status]'),
    unsavedMark: (shown) => key(shown).getByRole('img', { name: 'This key is unsaved' }),
    value: page.getByRole('textbox', { name: 'Translation value', exact: true }),
    defaultValue: page.getByRole('textbox', { name: 'Default language value', exact: true }),
    spellCheck: page.getByRole('checkbox', { name: 'Spell check' }),
    save: page.getByRole('button', { name: 'Save', exact: true }),
    cancel: page.getByRole('button', { name: 'Cancel', exact: true }),
    editLink: page.getByRole('button', { name: 'Edit link', exact: true }),
    /** The unsaved-changes prompt (a toast with Yes and No: an alert dialog). */
    prompt: page.getByRole('alertdialog', { name: 'Unsaved Changes' }),
    /** The newest 'saved' toast (an earlier one may still show). */
    savedToast: page.getByRole('status').filter({ hasText: 'Translation data saved successfully' }).last(),
  };
};

/** Waits for the Translation Manager with its key list. */
export async function expectTranslationManager(page) {
  const tm = translationManager(page);
  await expectVisible(tm.heading, { timeout: 20_000 });
  await expectVisible(tm.keys, { timeout: 20_000 });
  await expectVisible(tm.language);
}

/** The language the manager shows (the select's text, e.g. 'French (France) · fr_FR'). */
export async function expectLanguage(page, code) {
  const tm = translationManager(page);
  await expectText(tm.language, code);
}

/** Opens the Language select and picks a language by code (no waiting on the outcome). */
export async function chooseLanguage(page, code) {
  const tm = translationManager(page);
  await tm.language.click();
  const option = tm.languageOption(code);
  await expectVisible(option);
  await option.click();
  await expectHidden(page.getByRole('listbox', { name: 'Language' }));
}

/** Filters the key list to the key and selects it; waits until it is selected. */
export async function selectKey(page, shown) {
  const tm = translationManager(page);
  await tm.search.fill(shown);
  await expectVisible(tm.key(shown));
  await tm.key(shown).click();
  await eventually(async () => assert.equal(await tm.key(shown).getAttribute('aria-selected'), 'true', `${shown} selected`));
}

/** Adds a key through the Add key dialog; it is added to the draft (unsaved) and selected. */
export async function addKey(page, shown) {
  const tm = translationManager(page);
  await tm.addKey.click();
  await expectVisible(tm.addDialog);
  await tm.addDialog.getByRole('textbox', { name: /Key name/ }).fill(shown);
  await tm.addDialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expectHidden(tm.addDialog);
}

/** The status icon of a key: {icon, status} once it is `status` (polls). */
export async function expectKeyStatus(page, shown, status, icon) {
  const mark = translationManager(page).statusIcon(shown);
  return eventually(async () => {
    const got = { icon: await mark.getAttribute('data-icon', { timeout: 1_000 }), status: await mark.getAttribute('data-status', { timeout: 1_000 }) };
    assert.equal(got.status, status, `status of ${shown}: ${JSON.stringify(got)}`);
    if (icon) assert.equal(got.icon, icon, `icon of ${shown}: ${JSON.stringify(got)}`);
    return got;
  }, { timeout: 15_000 });
}

/**
 * Runs action (a Save click, a Yes to the prompt) and waits for the save-all request it sends
 * (PUT translation/<d>/<p>) to answer 200 and for the 'saved' toast. Returns the request's body.
 */
export async function expectSaved(page, action) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => /\/api\/v1\/translation\/\d+\/\d+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PUT'),
    action(),
  ]);
  assert.equal(response.status(), 200, `PUT translation: HTTP ${response.status()} ${await response.text()}`);
  await expectVisible(translationManager(page).savedToast);
  return response.request().postDataJSON();
}

/** Types text at the end of the rich-text value editor and waits for it to show. */
export async function typeValue(page, text) {
  const editor = translationManager(page).value;
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await expectText(editor, text);
}

/** Locators of the Link Manager dialog. */
export const linkManager = (page) => {
  const dialog = page.getByRole('dialog', { name: 'Link Manager' });
  return {
    dialog,
    tabs: dialog.getByRole('tablist', { name: 'Link type' }),
    tab: (name) => dialog.getByRole('tablist', { name: 'Link type' }).getByRole('tab', { name, exact: true }),
    save: dialog.getByRole('button', { name: 'Save', exact: true }),
    close: dialog.getByRole('button', { name: 'Close', exact: true }),
    page: dialog.getByRole('combobox', { name: 'Page' }),
    parameter: (name) => dialog.getByRole('textbox', { name, exact: true }),
    url: dialog.getByRole('textbox', { name: 'URL' }),
    captcha: dialog.getByRole('checkbox', { name: 'Captcha' }),
    captchaPage: dialog.getByRole('combobox', { name: 'Captcha page' }),
    errorPage: dialog.getByRole('combobox', { name: 'Error page' }),
    microsites: dialog.getByRole('radiogroup', { name: 'Microsites' }),
  };
};

/** Picks a page by title in one of the Link Manager's page comboboxes (MUI Autocomplete). */
export async function choosePage(page, combobox, title) {
  await combobox.click();
  const option = page.getByRole('listbox').getByRole('option', { name: title, exact: true });
  await expectVisible(option);
  await option.click();
  await eventually(async () => assert.equal(await combobox.inputValue(), title));
}
