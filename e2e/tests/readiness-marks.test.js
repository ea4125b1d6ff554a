// Readiness in the editors (issue 29 item 2) against the real server and the demo Crew Portal
// (domain 1, portal 1: en_GB default, fr_FR, ar_SA): an English value with a {name} placeholder
// and a French value without it are saved in the Translation Manager; the server's incremental
// check then marks the key in the fr_FR list beside its status with the placeholder finding
// (its accessible name is the finding's message), the key's finding is listed above the value,
// the English list has no such mark, and the Readiness screen's "Open" link for the key
// (?key=…&language=…) lands on it with fr_FR selected.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useE2E, apiSession, signIn, expectVisible, expectHidden, expectText, eventually } from '../harness/index.js';
import {
  crewPortal, translationsRoute, translationManager, expectTranslationManager, expectLanguage, chooseLanguage, selectKey,
  addKey, typeValue, expectSaved,
} from '../harness/translations.js';

const DOMAIN_ID = 1;
const KEY = 'txt_e2e_hello';

describe('readiness marks', { timeout: 240_000 }, () => {
  const e2e = useE2E();

  it('a French value that loses the English {name} placeholder marks the key with the finding', { timeout: 180_000 }, async () => {
    const admin = await apiSession(e2e.server);
    const { id: portalId, branch } = await crewPortal(admin, DOMAIN_ID);
    const page = await e2e.newPage();
    await signIn(page);
    const tm = translationManager(page);
    const go = (route) => page.evaluate((hash) => { window.location.hash = hash; }, route.replace(/^\/#/, '#'));

    // en_GB: a new key whose value has a placeholder, saved.
    await go(translationsRoute(DOMAIN_ID, portalId, branch, 'en_GB'));
    await expectTranslationManager(page);
    await expectLanguage(page, 'en_GB');
    await addKey(page, KEY);
    await typeValue(page, 'Hello {name}');
    await expectSaved(page, () => tm.save.click());

    // fr_FR: the same key without the placeholder, saved (a save with a new finding still saves).
    await chooseLanguage(page, 'fr_FR');
    await expectLanguage(page, 'fr_FR');
    await selectKey(page, KEY);
    await typeValue(page, 'Bonjour');
    await expectSaved(page, () => tm.save.click());

    // The key's option shows the placeholder mark beside its status; its name is the message.
    const mark = tm.key(KEY).getByTestId('readiness-mark');
    await expectVisible(mark, { timeout: 20_000 });
    const message = await mark.getAttribute('aria-label');
    assert.match(message, /\{name\}/, `the mark names the lost placeholder: ${message}`);
    assert.match(message, /fr_FR/, `the mark names the language: ${message}`);
    assert.equal(await mark.getAttribute('data-severity'), 'error');
    assert.equal(await mark.getAttribute('tabindex'), null, 'the mark is no tab stop');
    // Its tooltip says the same on hover.
    await mark.hover();
    await expectText(page.getByRole('tooltip'), '{name}');
    // The selected key's findings are listed above its value.
    const list = page.getByTestId('readiness-findings');
    await expectVisible(list);
    await expectText(list, message);

    // en_GB's list has no placeholder mark for the key (the finding is French).
    await chooseLanguage(page, 'en_GB');
    await expectLanguage(page, 'en_GB');
    await tm.search.fill(KEY);
    await expectVisible(tm.key(KEY));
    await expectHidden(tm.key(KEY).getByTestId('readiness-mark'));

    // The Readiness screen's "Open" link: the key selected in fr_FR, its finding listed.
    await go(`${translationsRoute(DOMAIN_ID, portalId, branch, 'en_GB')}?key=${KEY.toUpperCase()}&language=fr_FR`);
    await expectLanguage(page, 'fr_FR');
    await eventually(async () => assert.equal(await tm.key(KEY).getAttribute('aria-selected'), 'true', `${KEY} selected`));
    await expectVisible(tm.key(KEY).getByTestId('readiness-mark'));
    await expectText(page.getByTestId('readiness-findings'), '{name}');
  });
});
