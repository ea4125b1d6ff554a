// Browser launch for the browser tests: the system Chromium driven by playwright-core.
//
// One browser per test file, launched with chromium.launch(). Playwright itself gives every
// launch a fresh user-data directory (os.tmpdir()/playwright_chromiumdev_profile-XXXXXX,
// passed as --user-data-dir and deleted on close), so each test file starts from an empty
// profile. (A --user-data-dir of our own is refused by launch(), and launchPersistentContext()
// would allow only one context, i.e. no isolation between tests.) Each test then gets its own
// BrowserContext — its own cookies, localStorage and sessionStorage — from newContext().
// Never downloads a browser: executablePath is the Debian Chromium.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.PORTALWRIGHT_E2E_CHROMIUM || '/usr/bin/chromium';

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

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
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
