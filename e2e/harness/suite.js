// node:test glue: one server and one browser per test FILE (before/after), an isolated
// browser context per test, and on a failed test a screenshot of each of its pages in
// e2e/.artifacts/ plus the server's output, the browser console errors and the page's URL.
import { before, after, afterEach } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { E2E_DIR, startServer } from './server.js';
import { launchBrowser, newContextPage } from './browser.js';

export const ARTIFACTS_DIR = path.join(E2E_DIR, '.artifacts');

/**
 * Call inside a describe() (or at the top level of a test file). Returns an object whose
 * `server` and `browser` are set once before() has run, and whose newPage() opens a page in
 * a fresh context for the current test (closed after it).
 * @param {{ server?: object, name?: string, fullBrowser?: boolean }} [opts] server: options for
 *   startServer(); fullBrowser: the whole Chromium, not its headless shell (harness/browser.js)
 */
export function useE2E(opts = {}) {
  const state = {
    /** @type {Awaited<ReturnType<typeof startServer>>} */ server: null,
    /** @type {import('playwright-core').Browser} */ browser: null,
    contexts: [],
    /** A page in a new isolated browser context on the server (baseURL set: page.goto('/#/')). */
    async newPage(options) {
      const { context, page } = await newContextPage(state.browser, state.server.baseURL, options);
      state.contexts.push(context);
      return page;
    },
  };

  before(async () => {
    state.server = await startServer(opts.server);
    state.browser = await launchBrowser({ full: opts.fullBrowser });
  });

  afterEach(async (t) => {
    const contexts = state.contexts.splice(0);
    try {
      if (t.passed === false) await reportFailure(t, contexts, state.server);
    } finally {
      await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    }
  });

  after(async () => {
    try {
      await state.browser?.close();
    } finally {
      await state.server?.stop();
    }
  });

  return state;
}

async function reportFailure(t, contexts, server) {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const base = slug(`${path.basename(process.argv[1] ?? 'test', '.js')}-${t.fullName ?? t.name}`);
  const lines = [`--- failed: ${t.fullName ?? t.name}`];
  let n = 0;
  for (const context of contexts) {
    for (const page of context.pages()) {
      n++;
      const file = path.join(ARTIFACTS_DIR, `${base}-${n}.png`);
      try {
        await page.screenshot({ path: file, fullPage: true, timeout: 5_000 });
        lines.push(`screenshot: ${file} (url ${page.url()})`);
      } catch (err) {
        lines.push(`screenshot of ${page.url()} failed: ${err.message}`);
      }
    }
    if (context.__e2eLog?.length) lines.push('browser log:', ...context.__e2eLog);
  }
  if (server) {
    const logFile = path.join(ARTIFACTS_DIR, `${base}-server.log`);
    fs.writeFileSync(logFile, server.output());
    lines.push(`server output (also in ${logFile}):`, server.output());
  }
  console.error(lines.join('\n'));
}

function slug(s) {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 120);
}
