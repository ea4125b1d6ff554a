// Keyboard-only helpers: where the focus is, and moving it with Tab alone.
import assert from 'node:assert/strict';
import { eventually } from './expect.js';

/** A short description of the focused element ('BUTTON "Local changes: 0"'), for failure messages. */
export function focusedElement(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'BODY';
    const name = el.getAttribute('aria-label') ?? el.textContent ?? '';
    return `${el.tagName} "${name.replace(/\s+/g, ' ').trim().slice(0, 60)}"`;
  });
}

const holdsFocus = (locator) => locator.evaluate((el) => el === document.activeElement);

/** Waits until the element of locator has the focus. */
export async function expectFocused(locator, opts = {}) {
  const page = locator.page();
  await eventually(async () => {
    assert.ok(await holdsFocus(locator), `${locator} should have the focus; it is on ${await focusedElement(page)}`);
  }, opts);
}

/**
 * Presses Tab (Shift+Tab with back) until the element of locator has the focus; returns the
 * number of presses. Fails after max presses.
 */
export async function tabTo(page, locator, { max = 60, back = false } = {}) {
  await locator.waitFor({ state: 'attached' });
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await holdsFocus(locator)) return presses;
  }
  throw new Error(`${locator} not reached in ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}; the focus is on ${await focusedElement(page)}`);
}
