// The keyboard-only walk of issue 31 item 1: sign-in → domain, portal, branch and language from
// the side navigation → the Translation Manager (Manage Portal) → a key chosen with the arrows →
// its value changed → saved with Ctrl+S → committed from the header's Local changes, with Tab,
// Shift+Tab, the arrows, Enter, Space, Escape and typing only: no pointer, and no navigation but
// the first load of the sign-in page. Every key is counted (a chord such as Ctrl+S is one press,
// each typed character one) and the count printed: 'keyboard walk: N key presses'.
// The demo Crew Portal (domain 'Demo Airline' 1, portal 1, branch master, en_GB).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, ADMIN_USERNAME, ADMIN_PASSWORD, loginScreen, shell, expectShell, expectVisible, expectHidden, expectText,
  expectURL, expectEnabled,
} from '../harness/index.js';
import { translationManager, expectTranslationManager } from '../harness/translations.js';
import { readWorkspaceFile } from '../harness/pages.js';
import { arrowUntilSelected, countKeyPresses, expectFocused, pressUntilFocused } from '../harness/keyboard.js';

const KEY = 'txt_about_title';
const ADDED = ' by keyboard';
const MESSAGE = 'Keyboard walk';

describe('keyboard walk', { timeout: 300_000 }, () => {
  const e2e = useE2E();

  it('signs in, chooses the portal, edits a translation, saves and commits with the keyboard only', { timeout: 240_000 }, async () => {
    const page = await e2e.newPage();
    await page.goto('/#/');
    const keys = countKeyPresses(page);
    const { keyboard } = page;
    const nav = page.getByRole('navigation', { name: 'Side navigation' });
    /** A side navigation entry that opens a popover or a menu ('Select Portal', 'Manage Portal'). */
    const navEntry = (label) => nav.getByRole('button', { name: new RegExp(`^${label}\\b`) });
    /**
     * Tab to a navigation entry, Enter; its picker puts the focus on the current choice (else
     * the first), the arrows move to the choice; Enter.
     */
    async function choose(label, choice) {
      await pressUntilFocused(navEntry(label));
      await keyboard.press('Enter');
      await expectVisible(choice);
      await pressUntilFocused(choice, { key: 'ArrowDown', max: 20 });
      await keyboard.press('Enter');
      await expectHidden(choice);
    }
    /**
     * After a route change the focus goes to the main region's heading (or the region while the
     * screen loads); the walk goes on from there once it is shown.
     */
    const headingFocused = async (name) => {
      await expectVisible(page.getByRole('heading', { level: 1, name }), { timeout: 20_000 });
      await expectFocused(page.getByRole('main'), { timeout: 20_000 });
    };

    // Sign in: the Username field has the focus; Space ticks the terms.
    const login = loginScreen(page);
    await expectVisible(login.username);
    await expectFocused(login.username);
    await keyboard.type(ADMIN_USERNAME);
    await pressUntilFocused(login.password);
    await keyboard.type(ADMIN_PASSWORD);
    await pressUntilFocused(login.terms);
    await keyboard.press('Space');
    await expectEnabled(login.signIn);
    await pressUntilFocused(login.signIn);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/user/login') && r.request().method() === 'POST'),
      keyboard.press('Enter'),
    ]);
    assert.equal(response.status(), 200, 'signed in');
    const userId = (await response.json()).profile.user.id;
    await expectShell(page);

    // Domain, portal, branch and language from the side navigation's pickers.
    const item = (list, name) => page.getByRole('list', { name: list }).getByRole('button', { name }).first();
    await choose('Select Domain', item('Domains', 'Demo Airline'));
    await expectURL(page, /#\/domain\/1\/dashboard$/, { timeout: 20_000 });
    await headingFocused('Demo Airline');
    await choose('Select Portal', item('Portals', /^Crew Portal\b/));
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/master\/en_GB\//, { timeout: 20_000 });
    await headingFocused('Crew Portal');
    await choose('Select Branch', item('Branches', /^master\b/));
    await choose('Select Language', item('Languages', /^English \(United Kingdom\)/));
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/master\/en_GB\//);

    // Manage Portal → Manage Translation: a menu, moved in with the arrows.
    await pressUntilFocused(navEntry('Manage Portal'));
    await keyboard.press('Enter');
    await pressUntilFocused(page.getByRole('menuitem', { name: 'Manage Translation', exact: true }), { key: 'ArrowDown', max: 12 });
    await keyboard.press('Enter');
    await expectURL(page, /\/en_GB\/translations$/, { timeout: 20_000 });
    await expectTranslationManager(page);
    await headingFocused('Translation Manager');
    const tm = translationManager(page);
    await expectVisible(shell(page).localChanges(0), { timeout: 25_000 });

    // The key list: the arrows choose the key, Enter opens its editor.
    await pressUntilFocused(tm.keys);
    await arrowUntilSelected(tm.keys, tm.key(KEY));
    await keyboard.press('Enter');
    await expectFocused(tm.value);

    // Change the value, save with Ctrl+S.
    await keyboard.press('Control+End');
    await keyboard.type(ADDED);
    await expectText(tm.value, `About this portal${ADDED}`);
    const [saved] = await Promise.all([
      page.waitForResponse((r) => /\/api\/v1\/translation\/1\/1$/.test(new URL(r.url()).pathname) && r.request().method() === 'PUT'),
      keyboard.press('Control+s'),
    ]);
    assert.equal(saved.status(), 200, 'saved');
    await expectVisible(tm.savedToast);

    // Commit: the header's Local changes (back with Shift+Tab), a message, Submit.
    const localChanges = page.getByRole('button', { name: /^Local changes: [1-9]/ });
    await expectVisible(localChanges, { timeout: 25_000 });
    await pressUntilFocused(localChanges, { key: 'Shift+Tab', max: 60 });
    await keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Local changes' });
    await expectVisible(panel);
    await expectText(panel.getByRole('list', { name: 'Uncommitted files' }), 'en_GB.json');
    await pressUntilFocused(panel.getByLabel('Commit message'));
    await keyboard.type(MESSAGE);
    const submit = panel.getByRole('button', { name: 'Submit' });
    await expectEnabled(submit);
    await pressUntilFocused(submit);
    await keyboard.press('Enter');
    await expectHidden(panel, { timeout: 20_000 });
    await expectVisible(shell(page).localChanges(0), { timeout: 25_000 });

    const en = JSON.parse(readWorkspaceFile(e2e.server, userId, 1, 'translations/en_GB.json'));
    assert.equal(en.TXT_ABOUT_TITLE, `About this portal${ADDED}`);
    console.log(`keyboard walk: ${keys.count} key presses`);
    // 132 on 2 December 2026 (written on issue 31), typed characters included; a change that
    // makes the walk much longer (a control that joins the Tab order before the content) fails here.
    assert.ok(keys.count <= 150, `the walk took ${keys.count} key presses, more than 150`);
  });
});
