// The keyboard from the tests (issue 31, "keyboard alone"): where the focus is, Tab until a
// control has it, whether the focused control shows a focus ring, a count of every key pressed,
// and whether Ctrl+S was kept from the browser. Shared by keyboard-walk.test.js,
// keyboard-shell.test.js and keyboard-editors.test.js.
import assert from 'node:assert/strict';
import { eventually } from './expect.js';

/** Whether the locator's element (any of its matches) has the focus or holds it. */
export async function hasFocus(locator) {
  return locator.evaluateAll((els) => els.some((el) => el === document.activeElement || el.contains(document.activeElement)));
}

/** The focused element, described for a failure message: tag, role and accessible name. */
export async function focusedDescription(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'the page body';
    const label = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null;
    const name = el.getAttribute('aria-label') || label || el.textContent?.trim().slice(0, 60) || '';
    return `<${el.tagName.toLowerCase()}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}> "${name}"`;
  });
}

/**
 * The focused control and whether it shows a visible focus ring (WCAG 2.4.7): an outline of 2 px
 * or more on it, or on the box around an input (a checkbox's button, a field's root), or the
 * 2 px border an outlined text field draws around a focused input. {name, ring, inMain}, or null
 * when the page body has the focus.
 */
export async function focusRing(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const ringed = (node) => {
      const style = getComputedStyle(node);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    };
    const input = ['INPUT', 'TEXTAREA'].includes(el.tagName) || el.getAttribute('role') === 'combobox';
    const around = [el.parentElement, el.parentElement?.parentElement].filter(Boolean);
    const fieldset = el.parentElement?.querySelector(':scope > fieldset');
    const ring =
      ringed(el) ||
      (input && around.some(ringed)) ||
      (input && !!fieldset && parseFloat(getComputedStyle(fieldset).borderTopWidth) >= 2);
    const label = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null;
    const name = (el.getAttribute('aria-label') || label || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return { name: `<${el.tagName.toLowerCase()}> ${name}`, ring, inMain: !!el.closest('main') };
  });
}

/** Fails naming the stops (focusRing() answers; null ones skipped) that show no focus ring. */
export function assertRings(stops, where) {
  const missing = stops.filter((s) => s && !s.ring).map((s) => s.name);
  assert.deepEqual(missing, [], `controls without a visible focus ring (${where})`);
}

/** Waits until the locator's element has the focus. */
export async function expectFocused(locator, opts = {}) {
  const page = locator.page();
  await eventually(async () => assert.ok(await hasFocus(locator), `${locator} focused; the focus is on ${await focusedDescription(page)}`), opts);
}

/**
 * Presses `key` (Tab by default; Shift+Tab, ArrowDown…) until the locator's element has the
 * focus, at most `max` times; returns how many presses it took (0 when it had the focus already).
 * rings: an array that receives focusRing() of every stop on the way (the last one included).
 */
export async function pressUntilFocused(locator, { key = 'Tab', max = 40, rings } = {}) {
  const page = locator.page();
  for (let presses = 0; ; presses++) {
    if (await hasFocus(locator)) return presses;
    assert.ok(presses < max, `${locator} not focused after ${max} × ${key}; the focus is on ${await focusedDescription(page)}`);
    await page.keyboard.press(key);
    if (rings) rings.push(await settledFocusRing(page));
  }
}

/**
 * focusRing() once the control has had time to draw it: MUI marks a button focused by keyboard
 * (Mui-focusVisible) in a render after the focus moved, which a busy machine can delay; asks
 * again for up to 2 s while no ring shows.
 */
export async function settledFocusRing(page) {
  const until = Date.now() + 2_000;
  for (;;) {
    const found = await focusRing(page);
    if (!found || found.ring || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Presses `key` (ArrowDown by default) in a listbox that keeps the focus and marks its choice
 * with aria-activedescendant (the Translation Manager's keys) until `option` is selected; after
 * each press it waits for the choice to move. Returns how many presses it took.
 */
export async function arrowUntilSelected(listbox, option, { key = 'ArrowDown', max = 40 } = {}) {
  const page = listbox.page();
  for (let presses = 0; ; presses++) {
    if ((await option.getAttribute('aria-selected', { timeout: 1_000 }).catch(() => null)) === 'true') return presses;
    assert.ok(presses < max, `${option} not selected after ${max} × ${key}`);
    const before = await listbox.getAttribute('aria-activedescendant');
    await page.keyboard.press(key);
    await eventually(async () => assert.notEqual(await listbox.getAttribute('aria-activedescendant'), before, `${key} moved the choice`));
  }
}

/**
 * Counts the keys pressed on the page from now on: each press (a chord such as Control+s is one)
 * and each character typed. Returns {count}.
 */
export function countKeyPresses(page) {
  const keyboard = page.keyboard;
  const counter = { count: 0 };
  const press = keyboard.press.bind(keyboard);
  const type = keyboard.type.bind(keyboard);
  keyboard.press = (key, options) => {
    counter.count++;
    return press(key, options);
  };
  keyboard.type = (text, options) => {
    counter.count += [...text].length;
    return type(text, options);
  };
  return counter;
}

/**
 * Records, for every Ctrl/Cmd+S from now on, whether the app kept it from the browser (its
 * default, the Save Page dialog, prevented): read them with saveKeysPrevented().
 */
export async function watchSaveKeys(page) {
  await page.evaluate(() => {
    window.__e2eSaveKeys = [];
    // Bubble phase on the window: after every listener of the app.
    window.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') window.__e2eSaveKeys.push(e.defaultPrevented);
    });
  });
}

/** Whether each Ctrl+S since watchSaveKeys() had its default prevented, in order. */
export const saveKeysPrevented = (page) => page.evaluate(() => window.__e2eSaveKeys ?? []);
