// Browser launch for the browser tests: the system Chromium driven by playwright-core.
//
// One browser per test file, launched with chromium.launch(). Playwright itself gives every
// launch a fresh user-data directory (os.tmpdir()/playwright_chromiumdev_profile-XXXXXX,
// passed as --user-data-dir and deleted on close), so each test file starts from an empty
// profile. (A --user-data-dir of our own is refused by launch(), and launchPersistentContext()
// would allow only one context, i.e. no isolation between tests.) Each test then gets its own
// BrowserContext — its own cookies, localStorage and sessionStorage — from newContext().
// Never downloads a browser: executablePath is Debian's Chromium. The tests run on its headless
// shell (package chromium-headless-shell: the same engine without the desktop browser around
// it, about a fifth less CPU); a suite that needs the whole browser asks for it (useE2E's
// fullBrowser), as do the benches, whose figures are the browser users run.
import fs from 'node:fs';
import { chromium } from 'playwright-core';

const FULL = '/usr/bin/chromium';
const SHELL = '/usr/bin/chromium-headless-shell';

/** The browser of the tests: PORTALWRIGHT_E2E_CHROMIUM, else the headless shell when installed. */
export const CHROMIUM = process.env.PORTALWRIGHT_E2E_CHROMIUM || (fs.existsSync(SHELL) ? SHELL : FULL);
/** The whole browser, for what the headless shell does not do like it. */
export const CHROMIUM_FULL = process.env.PORTALWRIGHT_E2E_CHROMIUM || FULL;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Default time a locator action or wait may take (ms). */
export const ACTION_TIMEOUT_MS = 10_000;

/** @param {{ full?: boolean }} [opts] full: the whole browser instead of the headless shell */
export function launchBrowser({ full = false } = {}) {
  return chromium.launch({ executablePath: full ? CHROMIUM_FULL : CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A new isolated context on the browser, aimed at baseURL, with a page open.
 * Console errors and uncaught page errors are collected in context.__e2eLog for failure reports.
 */
export async function newContextPage(browser, baseURL, options = {}) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    // The app turns its motion off for it (web/src/ui/theme.ts): nothing animates while a test
    // waits, which spares the browser most of its drawing. The benches ask for 'no-preference'.
    reducedMotion: 'reduce',
    ...options,
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(15_000);
  const log = [];
  context.__e2eLog = log;
  context.on('page', (p) => watchPage(p, log));
  const page = await context.newPage();
  return { context, page };
}

function watchPage(page, log) {
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') log.push(`[console.${m.type()}] ${m.text()}`);
  });
  page.on('pageerror', (e) => log.push(`[pageerror] ${e.stack || e.message}`));
  page.on('requestfailed', (r) => log.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
}
