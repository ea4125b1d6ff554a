// The Link Manager (spec 2 §2 "Link manager", §4 "Links", §5 "Links", §8) opened from the
// Translation Manager's link-key editor ('Edit link') on the demo Crew Portal (domain 1, portal 1),
// whose sitemap has 'Weather' (child of 'Flight info') with a required parameter 'airport' and an
// optional 'unit':
// - Internal: page 'Weather', Save off until 'airport' is filled, the value '#/weather?airport=…';
// - External: 'ftp://x' gives the URL message and no captcha pickers; a valid https URL with
//   Captcha shows 'Captcha page' and 'Error page', Save off until both are chosen, the value
//   '#/{captcha}/captcha-page/{error}/{encoded url}';
// - MicroSite: 'No Microsites are currently configured.' while none is linked; once one is
//   linked (API), picking it gives 'microsites/<slug>/index.html';
// - the dialog reopens on the tab of the value's type; the saved key is in en_GB.json.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E, apiSession, signIn, expectVisible, expectHidden, expectDisabled, expectEnabled, eventually,
} from '../harness/index.js';
import {
  crewPortal, translationsRoute, translationManager, expectTranslationManager, addKey, selectKey, linkManager, choosePage,
  expectSaved,
} from '../harness/translations.js';

const DOMAIN_ID = 1;
const LONG = 120_000;
const URL_MESSAGE = 'Please make sure the URL is valid and starts with http:// or https://';
const NO_MICROSITES = 'No Microsites are currently configured.';

describe('link manager', { timeout: 200_000 }, () => {
  const e2e = useE2E();
  let portalId;
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    ({ id: portalId, branch } = await crewPortal(admin, DOMAIN_ID));
    assert.equal(portalId, 1, 'the Crew Portal is portal 1');
    const linked = await admin.ok('GET', `microsite/${DOMAIN_ID}/${portalId}/microsite`);
    assert.deepEqual(linked, [], 'the demo Crew Portal links no microsite');
  });

  /** Goes to a hash route without a reload (a reload would sign out). */
  async function go(page, route) {
    await page.evaluate((hash) => { window.location.hash = hash; }, route.replace(/^\/#/, '#'));
  }

  /** Opens the Link Manager of the selected link key and waits for the dialog. */
  async function openLinkManager(page) {
    await translationManager(page).editLink.click();
    const lm = linkManager(page);
    await expectVisible(lm.dialog);
    await expectVisible(lm.tabs);
    return lm;
  }

  /** en_GB.json of the user's workspace (checked to be 2-space indented JSON). */
  function readEnGb(userId) {
    const file = path.join(e2e.server.dataDir, 'workspaces', String(userId), String(portalId), 'translations', 'en_GB.json');
    const text = fs.readFileSync(file, 'utf8');
    const data = JSON.parse(text);
    assert.equal(text, `${JSON.stringify(data, null, 2)}\n`, 'en_GB.json is 2-space indented JSON');
    return data;
  }

  const expectTabSelected = async (lm, name) =>
    eventually(async () => assert.equal(await lm.tab(name).getAttribute('aria-selected'), 'true', `${name} tab selected`));

  it('Internal and External (captcha) links from a link key; MicroSite with none linked', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const tm = translationManager(page);
    await go(page, translationsRoute(DOMAIN_ID, portalId, branch, 'en_GB'));
    await expectTranslationManager(page);

    // A new link key: its editor is a plain input with 'Edit link'.
    await addKey(page, 'lnk_e2e_target');
    await tm.search.fill('lnk_e2e');
    await expectVisible(tm.key('lnk_e2e_target'));
    assert.equal(await tm.key('lnk_e2e_target').getAttribute('aria-selected'), 'true');
    await expectVisible(tm.value);
    assert.equal(await tm.value.inputValue(), '');
    await expectVisible(tm.editLink);

    // ---- Internal: a page and its required parameter.
    let lm = await openLinkManager(page);
    for (const name of ['Internal', 'External', 'Asset', 'MicroSite']) await expectVisible(lm.tab(name));
    await expectTabSelected(lm, 'Internal');
    await expectDisabled(lm.save);
    await choosePage(page, lm.page, 'Weather');
    await expectVisible(lm.parameter('airport'));
    await expectVisible(lm.parameter('unit'));
    assert.equal(await lm.parameter('airport').getAttribute('required'), '', 'airport is required');
    assert.equal(await lm.parameter('unit').getAttribute('required'), null, 'unit is optional');
    await expectDisabled(lm.save);
    // Touched and left empty: the field says so; Save stays off.
    await lm.parameter('airport').focus();
    await lm.parameter('airport').blur();
    await expectVisible(lm.dialog.getByText('airport is required.'));
    await expectDisabled(lm.save);
    await lm.parameter('airport').fill('LHR');
    await expectEnabled(lm.save);
    await lm.save.click();
    await expectHidden(lm.dialog);
    await eventually(async () => assert.equal(await tm.value.inputValue(), '#/weather?airport=LHR'));
    await expectEnabled(tm.save);

    // ---- External: the URL rule, then a captcha link.
    lm = await openLinkManager(page);
    await expectTabSelected(lm, 'Internal'); // the value is an internal link
    await eventually(async () => assert.equal(await lm.page.inputValue(), 'Weather'));
    assert.equal(await lm.parameter('airport').inputValue(), 'LHR');
    await lm.tab('External').click();
    await expectTabSelected(lm, 'External');
    await expectVisible(lm.url);
    await expectDisabled(lm.save);
    await lm.url.fill('ftp://x');
    await expectVisible(lm.dialog.getByText(URL_MESSAGE));
    await expectDisabled(lm.save);
    // Captcha on with an invalid URL: no pickers yet.
    await lm.captcha.check();
    assert.equal(await lm.captchaPage.count(), 0, 'no captcha page picker while the URL is invalid');
    assert.equal(await lm.errorPage.count(), 0, 'no error page picker while the URL is invalid');
    const target = 'https://example.org/crew-handbook?lang=en&x=1';
    await lm.url.fill(target);
    await expectHidden(lm.dialog.getByText(URL_MESSAGE));
    await expectVisible(lm.captchaPage);
    await expectVisible(lm.errorPage);
    await expectDisabled(lm.save);
    await choosePage(page, lm.captchaPage, 'Safety');
    await expectDisabled(lm.save);
    await choosePage(page, lm.errorPage, 'Contacts');
    await expectEnabled(lm.save);
    // Captcha off: a plain valid URL is saveable too; on again for the captcha link.
    await lm.captcha.uncheck();
    await expectHidden(lm.captchaPage);
    await expectEnabled(lm.save);
    await lm.captcha.check();
    await expectVisible(lm.captchaPage);
    await expectEnabled(lm.save);
    await lm.save.click();
    await expectHidden(lm.dialog);
    const captchaValue = `#/safety/captcha-page/contacts/${encodeURIComponent(target)}`;
    await eventually(async () => assert.equal(await tm.value.inputValue(), captchaValue));

    // ---- MicroSite: none linked yet.
    lm = await openLinkManager(page);
    await expectTabSelected(lm, 'External'); // a captcha link is external
    assert.equal(await lm.url.inputValue(), target);
    assert.equal(await lm.captcha.isChecked(), true);
    assert.equal(await lm.captchaPage.inputValue(), 'Safety');
    assert.equal(await lm.errorPage.inputValue(), 'Contacts');
    await lm.tab('MicroSite').click();
    await expectTabSelected(lm, 'MicroSite');
    await expectVisible(lm.dialog.getByText(NO_MICROSITES));
    assert.equal(await lm.microsites.count(), 0, 'no microsite to choose');
    await expectDisabled(lm.save);
    await lm.close.click();
    await expectHidden(lm.dialog);
    assert.equal(await tm.value.inputValue(), captchaValue, 'Close keeps the value');

    // Saved with the translations: the captcha link in en_GB.json.
    const sent = await expectSaved(page, () => tm.save.click());
    assert.equal(sent.data.en_GB.LNK_E2E_TARGET, captchaValue);
    assert.equal(readEnGb(login.profile.user.id).LNK_E2E_TARGET, captchaValue);
  });

  it('MicroSite: a linked microsite is picked; the dialog reopens on its tab', { timeout: LONG }, async () => {
    // Link a microsite of the domain into the portal through the API (as the dashboard does).
    // The link manager caches the linked microsites for 30 s: a new browser context sees it.
    const admin = await apiSession(e2e.server);
    await admin.ok('POST', `portal/create_template/${DOMAIN_ID}`, { name: 'Duty Free', type: 'CREW', scope: 'MICROSITE', starter: 'crew' });
    const all = await admin.ok('GET', `microsite/${DOMAIN_ID}/microsite`);
    const dutyFree = all.find((m) => m.name === 'Duty Free');
    assert.ok(dutyFree, `Duty Free among the domain's microsites: ${JSON.stringify(all)}`);
    await admin.ok('PUT', `microsite/${DOMAIN_ID}/microsite`, { portalId, microsites: [dutyFree.id] });

    const page = await e2e.newPage();
    const login = await signIn(page);
    const tm = translationManager(page);
    await go(page, translationsRoute(DOMAIN_ID, portalId, branch, 'en_GB'));
    await expectTranslationManager(page);
    // The key saved by the test before (the same workspace).
    await selectKey(page, 'lnk_e2e_target');
    const before = await tm.value.inputValue();
    assert.match(before, /^#\/safety\/captcha-page\/contacts\//, 'the captcha link saved before');

    let lm = await openLinkManager(page);
    await expectTabSelected(lm, 'External');
    await lm.tab('MicroSite').click();
    await expectTabSelected(lm, 'MicroSite');
    await expectVisible(lm.microsites);
    const radio = lm.microsites.getByRole('radio', { name: 'Duty Free', exact: true });
    await expectVisible(radio);
    assert.equal(await lm.dialog.getByText(NO_MICROSITES).count(), 0);
    await expectDisabled(lm.save);
    await radio.check();
    await expectEnabled(lm.save);
    await lm.save.click();
    await expectHidden(lm.dialog);
    await eventually(async () => assert.equal(await tm.value.inputValue(), 'microsites/duty-free/index.html'));

    // Reopened: the MicroSite tab with the microsite chosen.
    lm = await openLinkManager(page);
    await expectTabSelected(lm, 'MicroSite');
    await expectVisible(radio);
    assert.equal(await radio.isChecked(), true, 'the linked microsite is chosen');
    await lm.close.click();
    await expectHidden(lm.dialog);

    // Saved with the translations: the key in en_GB.json.
    const sent = await expectSaved(page, () => tm.save.click());
    assert.equal(sent.data.en_GB.LNK_E2E_TARGET, 'microsites/duty-free/index.html');
    assert.equal(readEnGb(login.profile.user.id).LNK_E2E_TARGET, 'microsites/duty-free/index.html');
  });
});
