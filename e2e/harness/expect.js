// Waiting assertions for playwright-core (which has no expect()): every one polls a
// condition until it holds or the timeout passes — no fixed sleeps in the tests.
import assert from 'node:assert/strict';
import { ACTION_TIMEOUT_MS } from './browser.js';

const POLL_MS = 50;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs fn until it returns without throwing (and returns its value), or rethrows its last
 * error after timeout ms.
 */
export async function eventually(fn, { timeout = ACTION_TIMEOUT_MS, message } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) {
        if (message) err.message = `${message}: ${err.message}`;
        throw err;
      }
    }
    await sleep(POLL_MS);
  }
}

export async function expectVisible(locator, opts = {}) {
  await locator.waitFor({ state: 'visible', timeout: opts.timeout ?? ACTION_TIMEOUT_MS });
}

export async function expectHidden(locator, opts = {}) {
  await locator.waitFor({ state: 'hidden', timeout: opts.timeout ?? ACTION_TIMEOUT_MS });
}

export async function expectEnabled(locator, opts = {}) {
  await eventually(async () => assert.equal(await locator.isEnabled({ timeout: POLL_MS * 20 }), true, `${locator} should be enabled`), opts);
}

export async function expectDisabled(locator, opts = {}) {
  await eventually(async () => assert.equal(await locator.isDisabled({ timeout: POLL_MS * 20 }), true, `${locator} should be disabled`), opts);
}

export async function expectChecked(locator, checked = true, opts = {}) {
  await eventually(async () => assert.equal(await locator.isChecked({ timeout: POLL_MS * 20 }), checked, `${locator} checked`), opts);
}

/** The locator's text contains expected (a string or RegExp); returns the text. */
export async function expectText(locator, expected, opts = {}) {
  return eventually(async () => {
    const text = (await locator.innerText({ timeout: POLL_MS * 20 })).replace(/\s+/g, ' ').trim();
    if (expected instanceof RegExp) assert.match(text, expected);
    else assert.ok(text.includes(expected), `expected ${JSON.stringify(text)} to contain ${JSON.stringify(expected)} (${locator})`);
    return text;
  }, opts);
}

/** The page's URL matches re (hash routes included). */
export async function expectURL(page, re, opts = {}) {
  await eventually(async () => assert.match(page.url(), re), opts);
}

export async function expectCount(locator, n, opts = {}) {
  await eventually(async () => assert.equal(await locator.count(), n, `${locator} count`), opts);
}
