// make bench (issue 12): the page designer in a real Chromium on the demo Crew Portal (the real
// binary, PORTALWRIGHT_BIN): "route change to a rendered page in the frame < 300 ms (p50)".
// - route change: an in-app hash route change to another page's designer-mode route (what the
//   page selector, a search hit or a link does) to the engine's 'Preparing To Render' progress 100
//   for that page (its engineEvent message to the designer: sent once the page's HTML is in the
//   outlet and its widgets are rendered; the designer's overlay goes on it). Each sample is then
//   checked inside the frame: the page's own widget is there, rendered.
// - page selector: the same, started by a click on a page of the toolbar's 'Page: <title>' tree.
// Cycles through home, flight-info, crew-schedule, safety and contacts, RUNS (BENCH_RUNS,
// default 9) times: 5 × RUNS route changes (the first cycle's are the cold ones), then 10
// changes through the page selector.
// Run: node e2e/bench/designer.bench.js (scripts/bench.sh does).
import assert from 'node:assert/strict';
import { startServer } from '../harness/server.js';
import { launchBrowser, newContextPage } from '../harness/browser.js';
import { signIn } from '../harness/ui.js';
import { pageRoute, goTo, designer, openDesigner } from '../harness/pages.js';

const RUNS = Number(process.env.BENCH_RUNS || 9);
const DOMAIN = 1;
const PORTAL = 1; // the Crew Portal (PORTAL_ENGINE)
// Each page and a widget of its own that the engine renders into the frame.
const PAGES = [
  ['flight-info', 'Flight info', 'flight-image'],
  ['crew-schedule', 'Crew schedule', 'schedule-notes'],
  ['safety', 'Safety', 'safety-notice'],
  ['contacts', 'Contacts', 'contacts-links'],
  ['home', 'Home', 'home-hero'],
];
const SELECTOR_CHANGES = 10;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => `${ms.toFixed(1)} ms`;

/**
 * Arms a listener in the app for the engine's progress 100 of pageId (a JSON engineEvent posted by
 * the preview frame); window.__rendered resolves to the time from the start mark to it.
 * start: 'now' (the mark is set here, just before the caller changes the route) or 'click' (the
 * mark is the next click's time, captured before anything handles it).
 */
async function arm(page, pageId, start) {
  await page.evaluate(({ pageId, start }) => {
    const frame = document.querySelector('iframe[title="Portal preview"]');
    window.__t0 = start === 'now' ? performance.now() : null;
    if (start === 'click') window.addEventListener('click', (e) => { window.__t0 = e.timeStamp; }, { capture: true, once: true });
    window.__rendered = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no progress 100 for ${pageId} within 15 s`)), 15_000);
      window.addEventListener('message', function listen(ev) {
        if (ev.source !== frame.contentWindow || typeof ev.data !== 'string') return;
        let msg;
        try { msg = JSON.parse(ev.data); } catch { return; }
        const p = msg?.payload;
        if (msg?.type !== 'engineEvent') return;
        if (p?.error) { clearTimeout(timer); reject(new Error(`engine error on ${pageId}: ${JSON.stringify(p.error)}`)); return; }
        if (window.__t0 === null || p?.pageId !== pageId) return;
        // 'Updating Route' (25) comes after the engine's 100 ms page wait: the split of the time.
        if (p.progress === 25) window.__t25 = performance.now() - window.__t0;
        if (p.progress === 100) {
          const took = performance.now() - window.__t0;
          clearTimeout(timer);
          window.removeEventListener('message', listen);
          resolve(took);
        }
      });
    });
  }, { pageId, start });
}

/** The frame shows the page: its widget rendered, nothing of another page's widget. */
async function checkRendered(page, widget) {
  const el = designer(page).frame.locator(`main [data-pw-widget="${widget}"]`);
  await el.waitFor({ state: 'attached', timeout: 5_000 });
  const html = await el.innerHTML();
  assert.ok(html.trim().length > 0, `${widget} rendered`);
  assert.equal(await el.getAttribute('data-pw-widget-error'), null, `${widget} rendered without error`);
}

const server = await startServer();
const browser = await launchBrowser({ full: true }); // the figures are the browser users run
try {
  const { page } = await newContextPage(browser, server.baseURL, { reducedMotion: 'no-preference' });
  await signIn(page);
  await openDesigner(page, pageRoute(DOMAIN, PORTAL, 'master', 'home'), '[data-pw-widget="home-hero"] h1');
  await page.waitForLoadState('networkidle');

  // In-app route changes.
  const routeChanges = [];
  const cold = [];
  const toRoute = [];
  for (let run = 0; run < RUNS; run++) {
    for (const [id, , widget] of PAGES) {
      await arm(page, id, 'now');
      await goTo(page, pageRoute(DOMAIN, PORTAL, 'master', id));
      const took = await page.evaluate(() => window.__rendered);
      toRoute.push(await page.evaluate(() => window.__t25));
      await checkRendered(page, widget);
      (run === 0 ? cold : routeChanges).push(took);
    }
  }
  const all = [...cold, ...routeChanges];

  // Through the toolbar's page selector: click 'Page: <current>', then the page in the tree.
  const selector = [];
  let current = 'Home';
  for (let i = 0; i < SELECTOR_CHANGES; i++) {
    const [id, title, widget] = PAGES[i % PAGES.length];
    const d = designer(page);
    await d.pageButton(current).click();
    const item = d.pageTree.locator(`[role="treeitem"][data-page-id="${id}"]`);
    if (!(await item.isVisible())) {
      // A child page: open its parent first.
      const parent = { contacts: 'Safety', weather: 'Flight info' }[id];
      await d.pageTree.getByRole('button', { name: `Expand ${parent}`, exact: true }).click();
    }
    await arm(page, id, 'click');
    await item.getByRole('button', { name: title, exact: true }).click();
    selector.push(await page.evaluate(() => window.__rendered));
    await checkRendered(page, widget);
    await d.pageButton(title).waitFor();
    current = title;
  }

  console.log(`== Page designer (issue 12): Crew Portal, Chromium, ${all.length} route changes over ${PAGES.map((p) => p[0]).join(', ')} ==`);
  console.log(`  route change to progress 100 in the frame: median ${fmt(median(all))} (min ${fmt(Math.min(...all))}, max ${fmt(Math.max(...all))})`);
  console.log(`  of which route change to the engine's 'Updating Route' (after its 100 ms page wait): median ${fmt(median(toRoute))}; then page HTML and widgets to progress 100: median ${fmt(median(all) - median(toRoute))}`);
  console.log(`  first visit of each page (cold): median ${fmt(median(cold))}; later visits: median ${fmt(median(routeChanges))}`);
  console.log(`  page selector click to progress 100: median ${fmt(median(selector))} over ${selector.length} changes (max ${fmt(Math.max(...selector))})`);
  console.log(`designer, crew portal: route change to a rendered page ${fmt(median(all))} p50 (target < 300 ms), via the page selector ${fmt(median(selector))}`);
} finally {
  await browser.close();
  await server.stop();
}
