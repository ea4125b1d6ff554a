// The app shell by keyboard alone (issue 31 item 1; WCAG 2.1.1, 2.4.1, 2.4.3, 2.4.7): the skip
// link, the focus after a route change, the pickers' popovers, the focus after a panel or dialog
// closes, the shortcuts and the focus ring. After signing in (a click) and opening a screen by
// its URL, every test uses the keyboard only (page.keyboard): no click, no locator action.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useE2E, apiSession, signIn, expectVisible, expectHidden, expectURL, expectText } from '../harness/index.js';
import { assertRings, expectFocused, focusedDescription, pressUntilFocused, settledFocusRing } from '../harness/keyboard.js';

const PORTAL = '/#/domain/1/portal/1/branch/master/en_GB';

describe('the shell by keyboard alone', { timeout: 180_000 }, () => {
  const e2e = useE2E();

  before(async () => {
    const admin = await apiSession(e2e.server);
    await admin.ok('POST', 'portal/1/1/branches', { name: 'keyboard-branch' });
  });

  const nav = (page) => page.getByRole('navigation', { name: 'Side navigation' });
  const h1 = (page) => page.getByRole('main').getByRole('heading', { level: 1 }).first();

  /** Signs in (remembered, so a reload keeps the session) and loads url afresh: the focus starts at the top. */
  async function open(url, { heading } = {}) {
    const page = await e2e.newPage();
    await signIn(page, { remember: true });
    await page.goto(url);
    await page.reload();
    await expectVisible(heading ? page.getByRole('heading', { name: heading, level: 1 }) : h1(page), { timeout: 20_000 });
    return page;
  }

  it("'Skip to main content' is the first stop, shows when focused and lands in the main region", async () => {
    const page = await open(`${PORTAL}/dashboard`, { heading: 'Crew Portal' });
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await page.keyboard.press('Tab');
    await expectFocused(skip);
    const box = await skip.boundingBox();
    assert.ok(box && box.width > 20 && box.height > 10 && box.x >= 0 && box.y >= 0, `the focused skip link is visible (${JSON.stringify(box)})`);
    await page.keyboard.press('Enter');
    await expectFocused(page.getByRole('heading', { name: 'Crew Portal', level: 1 }));
    // The next stop is in the main region, not the side navigation or the header; the link,
    // unfocused, takes no room on the screen again.
    await page.keyboard.press('Tab');
    assert.ok(await page.evaluate(() => !!document.activeElement?.closest('main')), `Tab after the skip link stays in main (${await focusedDescription(page)})`);
    const rect = await skip.evaluate((el) => el.getBoundingClientRect().toJSON());
    assert.ok(rect.width <= 1 && rect.height <= 1, `the unfocused skip link is hidden (${JSON.stringify(rect)})`);
  });

  it("after choosing a screen in the side navigation's menu, the focus is on the new screen's heading", async () => {
    const page = await open('/#/domain/1/dashboard');
    const manageDomain = nav(page).getByRole('button', { name: 'Manage Domain' });
    await pressUntilFocused(manageDomain);
    await page.keyboard.press('Enter');
    const menuItem = page.getByRole('menuitem', { name: 'Manage Portals' });
    await expectVisible(menuItem);
    for (let i = 0; i < 5 && !(await menuItem.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
    await expectFocused(menuItem);
    await page.keyboard.press('Enter');
    await expectURL(page, /#\/domain\/1\/portal-management$/);
    await expectFocused(page.getByRole('heading', { name: 'Manage Portals', level: 1 }));
  });

  it('a picker opens with Enter, moves with the arrows and chooses with Enter', async () => {
    const page = await open(`${PORTAL}/dashboard`, { heading: 'Crew Portal' });
    const selectLanguage = nav(page).getByRole('button', { name: /^Select Language/ });
    await pressUntilFocused(selectLanguage);
    await page.keyboard.press('Enter');
    const languages = page.getByRole('list', { name: 'Languages' });
    await expectVisible(languages);
    // The focus starts on the current choice; the arrows, Home, End and letters move it.
    const entries = languages.getByRole('button');
    const english = languages.getByRole('button', { name: /^English \(United Kingdom\)/ });
    await expectFocused(english);
    await page.keyboard.press('ArrowDown');
    await expectFocused(entries.nth(1));
    await page.keyboard.press('End');
    await expectFocused(entries.last());
    await page.keyboard.press('ArrowDown'); // wraps round to the first
    await expectFocused(entries.first());
    await page.keyboard.press('ArrowUp'); // and back to the last
    await expectFocused(entries.last());
    await page.keyboard.press('Home');
    await expectFocused(entries.first());
    // Escape closes it, the focus back on Select Language; Space opens it again.
    await page.keyboard.press('Escape');
    await expectHidden(languages);
    await expectFocused(selectLanguage);
    await page.keyboard.press('Space');
    await expectFocused(english);
    await page.keyboard.type('Fre');
    await expectFocused(languages.getByRole('button', { name: /^French \(France\)/ }));
    await page.keyboard.press('Enter');
    await expectURL(page, /\/fr_FR\/dashboard$/);
    await expectHidden(languages);

    // The branch picker, its entries loaded after it opened: the arrows reach the new branch.
    const selectBranch = nav(page).getByRole('button', { name: /^Select Branch/ });
    await pressUntilFocused(selectBranch, { key: 'Shift+Tab' });
    await page.keyboard.press('Enter');
    const branches = page.getByRole('list', { name: 'Branches' });
    await expectFocused(branches.getByRole('button', { name: 'master' }));
    await page.keyboard.press('Escape');
    await expectFocused(selectBranch);
  });

  it('after a panel or dialog closes, the focus is back on the control that opened it', async () => {
    const page = await open(`${PORTAL}/dashboard`, { heading: 'Crew Portal' });
    for (const name of [/^Local changes/, /^Task runner$/, /^Notifications/, /^Profile /]) {
      const opener = page.getByRole('banner').getByRole('button', { name });
      await pressUntilFocused(opener);
      await page.keyboard.press('Enter');
      await expectVisible(page.locator('.MuiPopover-paper'));
      await page.keyboard.press('Tab'); // into the panel
      await page.keyboard.press('Escape');
      await expectHidden(page.locator('.MuiPopover-paper'));
      await expectFocused(opener);
    }

    // A question (a prompt toast), asked by a screen's button: it takes the focus (on its safe
    // answer); Escape answers no and gives the focus back.
    await page.goto(`${PORTAL}/branches`);
    const deleteBranch = page.getByRole('button', { name: 'Delete branch keyboard-branch' });
    await expectVisible(deleteBranch, { timeout: 15_000 });
    await pressUntilFocused(deleteBranch);
    await page.keyboard.press('Enter');
    const question = page.getByRole('alertdialog', { name: 'Delete Branch' });
    await expectVisible(question);
    await expectFocused(question.getByRole('button', { name: 'No' }));
    await page.keyboard.press('Escape');
    await expectHidden(question);
    await expectFocused(deleteBranch);

    // FormDialog: Create Branch, closed with Escape.
    const create = page.getByRole('button', { name: 'Create Branch' });
    await pressUntilFocused(create, { key: 'Shift+Tab' });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create Branch' });
    await expectVisible(dialog);
    await page.keyboard.press('Escape');
    await expectHidden(dialog);
    await expectFocused(create);

    // ConfirmDialog: Delete Domain, closed with Escape.
    await page.goto('/#/admin/domains/1');
    const deleteDomain = page.getByRole('button', { name: 'Delete Domain' });
    await expectVisible(deleteDomain, { timeout: 15_000 });
    await pressUntilFocused(deleteDomain);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: /Delete/ });
    await expectVisible(confirm);
    await page.keyboard.press('Escape');
    await expectHidden(confirm);
    await expectFocused(deleteDomain);
  });

  it('Ctrl+K focuses the header search', async () => {
    const page = await open(`${PORTAL}/dashboard`, { heading: 'Crew Portal' });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+k');
    await expectFocused(page.getByRole('combobox', { name: /Search/ }));
    // The default of the browser (its own search) is prevented.
    const prevented = await page.evaluate(() => {
      const event = new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true, cancelable: true });
      document.body.dispatchEvent(event);
      return event.defaultPrevented;
    });
    assert.equal(prevented, true, 'Ctrl+K is the app\'s');
  });

  it("'?' lists the shortcuts; Escape closes the list and gives the focus back", async () => {
    const page = await open('/#/');
    const home = nav(page).getByRole('button', { name: 'Portalwright home' });
    await pressUntilFocused(home);
    await page.keyboard.press('?');
    const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expectVisible(list);
    await expectText(list, 'Ctrl/Cmd+S');
    await expectText(list, 'Save (in every editor)');
    await expectText(list, 'Ctrl/Cmd+K');
    await expectText(list, 'Skip to main content');
    await page.keyboard.press('Escape');
    await expectHidden(list);
    await expectFocused(home);
  });

  it('every control of the shell shows a focus ring', async () => {
    const page = await open(`${PORTAL}/dashboard`, { heading: 'Crew Portal' });
    const stops = [];
    // Through the skip link, the side navigation and the header (up to the main region).
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const stop = await settledFocusRing(page);
      if (!stop || stop.inMain) break;
      stops.push(stop);
    }
    assertRings(stops, 'the shell');
  });
});
