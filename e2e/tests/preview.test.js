// The preview frame's workspace files (issue 12 item 1; spec 2 §4 "Pages and designer"):
// the app frames api/v1/workspace/{token}/{domain}/{portal}/… as the designer will, and a
// script inside a portal page — untrusted content — runs, but in an opaque origin: it cannot
// read the app's localStorage (where the session is), reach the parent document, or call the
// API with the user's cookies. Opened on its own (no iframe sandbox attribute), the server's
// CSP sandbox still applies.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useE2E, apiSession, signIn, eventually } from '../harness/index.js';

const DOMAIN_ID = 1;
const CREW_PORTAL_ID = 1;

// A portal page that tries everything a hostile portal would, then reports to its parent
// (or, opened on its own, in its title).
const PROBE = `<!doctype html><html><head><title>probe</title></head><body><script>
(async () => {
  const out = { origin: String(self.origin) };
  try { out.storage = Object.keys(localStorage).length; } catch (e) { out.storage = 'blocked: ' + e.name; }
  try { out.cookie = document.cookie; } catch (e) { out.cookie = 'blocked: ' + e.name; }
  try { out.parentDoc = String(parent.document.title); } catch (e) { out.parentDoc = 'blocked: ' + e.name; }
  try {
    const r = await fetch('/api/v1/user/profile', { credentials: 'include' });
    out.api = r.status;
  } catch (e) { out.api = 'blocked: ' + e.name; }
  try {
    const r = await fetch('../../sitemap.json');
    out.ownFiles = r.status;
  } catch (e) { out.ownFiles = 'blocked: ' + e.name; }
  const text = JSON.stringify(out);
  document.title = text;
  if (parent !== self) parent.postMessage(text, '*');
})();
</script></body></html>
`;

describe('preview frame', { timeout: 180_000 }, () => {
  const e2e = useE2E();

  it("a portal's script runs in the frame but cannot reach the app's storage, document or API", { timeout: 120_000 }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const admin = await apiSession(e2e.server);
    await admin.ok('GET', `portal/${DOMAIN_ID}/${CREW_PORTAL_ID}/open`);
    const ws = path.join(e2e.server.dataDir, 'workspaces', String(login.profile.user.id), String(CREW_PORTAL_ID));
    fs.mkdirSync(path.join(ws, 'pages', 'probe'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'pages', 'probe', 'probe.html'), PROBE);
    const { base } = await admin.ok('POST', `workspace/${DOMAIN_ID}/${CREW_PORTAL_ID}/token`);
    assert.match(base, /^\/api\/v1\/workspace\/pwp1\.[^/]+\/1\/1\/$/);

    // The app's origin holds the session in localStorage.
    const appKeys = await page.evaluate(() => Object.keys(localStorage).length);
    assert.ok(appKeys > 0, 'the app keeps its session in localStorage');

    // Framed as the designer frames it.
    const report = await page.evaluate(async (src) => {
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.src = src;
      const answer = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the frame did not report')), 20_000);
        window.addEventListener('message', (ev) => {
          if (ev.source !== frame.contentWindow) return;
          clearTimeout(timer);
          resolve({ origin: ev.origin, data: JSON.parse(ev.data) });
        });
      });
      document.body.appendChild(frame);
      const got = await answer;
      frame.remove();
      return got;
    }, base + 'pages/probe/probe.html');
    assert.equal(report.origin, 'null', 'the frame runs in an opaque origin');
    assert.equal(report.data.origin, 'null');
    assert.match(String(report.data.storage), /^blocked: SecurityError/);
    assert.match(String(report.data.cookie), /^blocked: SecurityError/);
    assert.match(String(report.data.parentDoc), /^blocked: SecurityError/);
    // The API sends no CORS headers: an opaque origin cannot even read its answer.
    assert.equal(report.data.api, 'blocked: TypeError', 'the API is out of reach of the frame');
    assert.equal(report.data.ownFiles, 200, 'the portal can still fetch its own files');

    // Opened on its own: the server's CSP sandbox makes it opaque all the same.
    const alone = await e2e.newPage();
    await alone.goto(base + 'pages/probe/probe.html');
    let data;
    await eventually(async () => {
      data = JSON.parse(await alone.title());
    });
    assert.equal(data.origin, 'null');
    assert.match(String(data.storage), /^blocked: SecurityError/);
    assert.equal(data.api, 'blocked: TypeError');
  });
});
