// The task runner keeps its word (issue 23 item 4; spec 3 §4 "Task runner"), on the demo
// Passenger Portal (UNIVERSAL, runner active, `node build.js`, extensions ['json']):
// - a run shows VALIDATING then RUNNING ('Running workspace tasks...'), not VALIDATING throughout;
// - Log out during a run waits behind 'Waiting on tasks to finish validating and running...';
// - with Auto run on, a saved change to a listed extension starts a run (not only STALE);
// - a live preview follows a commit: its link serves the committed content once rebuilt.
// The build is made to wait a few seconds by a line put into the workspace's build.js on disk
// (a file the product never wrote: no STALE, no run of its own).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  useE2E,
  apiSession,
  signIn,
  expectVisible,
  eventually,
  passengerPortal,
  shell,
  overlays,
  expectLoginScreen,
} from '../harness/index.js';

const DOMAIN_ID = 1;
const WAITING = 'Waiting on tasks to finish validating and running...';

describe('task runner keeps its word', { timeout: 240_000 }, () => {
  const e2e = useE2E();
  let portalId;
  let branch;
  let adminId;

  before(async () => {
    const admin = await apiSession(e2e.server);
    ({ id: portalId, branch } = await passengerPortal(admin, DOMAIN_ID));
    adminId = admin.userId;
  });

  const button = (page) => page.getByRole('button', { name: 'Task runner', includeHidden: true });
  const panel = (page) => page.getByRole('dialog', { name: 'Task runner' });
  const workspace = () => path.join(e2e.server.dataDir, 'workspaces', String(adminId), String(portalId));
  const phase = (page) => button(page).getAttribute('data-phase');

  /** Makes the workspace's build wait ms first (restored by the returned function). */
  function slowBuild(ms) {
    const file = path.join(workspace(), 'build.js');
    const original = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      original.replace("'use strict';\n", `'use strict';\nAtomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});\n`),
    );
    return () => fs.writeFileSync(file, original);
  }

  const api = (login) => async (method, p, body, headers = {}) => {
    const res = await e2e.server.fetch(`/api/v1/${p}`, {
      method,
      headers: { Authorization: `Bearer ${login.id_token}`, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.status < 300, `${method} ${p}: HTTP ${res.status} ${text}`);
    return { text, json: text ? JSON.parse(text) : null, etag: res.headers.get('etag') };
  };

  async function openDashboard() {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await page.goto(`/#/domain/${DOMAIN_ID}/portal/${portalId}/branch/${branch}/en_GB/dashboard`);
    await expectVisible(button(page), { timeout: 20_000 });
    return { page, login, call: api(login) };
  }

  /** Saves a content file and its schema through the asset API (a product write: STALE or Auto run). */
  async function saveContent(call, name, data) {
    for (const [file, body] of [
      [`${name}.json.schema`, '{"type":"object"}\n'],
      [`${name}.json`, JSON.stringify(data) + '\n'],
    ]) {
      // New files (a unique name): version "0".
      await call('POST', `assets/${DOMAIN_ID}/${portalId}/src/content/en_GB/${file}`, { data: body }, { 'If-Match': '"0"' });
    }
  }

  it('shows VALIDATING then RUNNING, and Log out waits for the run', { timeout: 60_000 }, async () => {
    const { page } = await openDashboard();
    await eventually(async () => assert.ok(fs.existsSync(path.join(workspace(), 'build.js')), 'the workspace is open'));
    const restore = slowBuild(6000);
    try {
      await button(page).click();
      await panel(page).getByRole('button', { name: 'Run Tasks' }).click();
      await eventually(async () => assert.equal(await phase(page), 'RUNNING'), { timeout: 15_000 });
      const running = Date.now();
      await expectVisible(panel(page).getByText('Running workspace tasks...'));
      await page.keyboard.press('Escape');

      await shell(page).profileButton.click();
      await shell(page).logOut.click();
      await expectVisible(overlays(page).filter({ hasText: WAITING }).first());
      // Still signed in while the build runs: the login screen is not there a second later.
      await page.waitForTimeout(1000);
      assert.equal(await page.getByRole('button', { name: 'Sign in', exact: true }).count(), 0, 'logged out during the run');
      await expectLoginScreen(page);
      // The build waits 6 s in RUNNING: the logout went on only after it ended (and then cleared
      // the build: no live preview).
      assert.ok(Date.now() - running >= 4000, `logged out ${Date.now() - running} ms after RUNNING began`);
      const admin = await apiSession(e2e.server);
      const state = await admin.ok('GET', `workspace-build/${DOMAIN_ID}/${portalId}/state`);
      assert.ok(!['VALIDATING', 'RUNNING'].includes(state.phase), `the run ended before the logout: ${state.phase}`);
    } finally {
      restore();
    }
  });

  it('Auto run: a saved change to a listed extension starts a run', { timeout: 60_000 }, async () => {
    const { page, call } = await openDashboard();
    const settings = await call('GET', `settings/${DOMAIN_ID}/${portalId}`);
    const next = structuredClone(settings.json);
    next.taskRunnerSettings = { ...next.taskRunnerSettings, active: true, autoRun: true, extensions: ['json'] };
    await call('PUT', `settings/${DOMAIN_ID}/${portalId}`, next, { 'If-Match': settings.etag });
    // portal.json is a listed extension too: its save is judged by the settings the runner held
    // before it (it may start a run, or make a finished state STALE). A state read hands the
    // runner the new settings; then whatever that save started ends.
    await call('GET', `workspace-build/${DOMAIN_ID}/${portalId}/state`);
    await page.waitForTimeout(500);
    await eventually(async () => assert.ok(['STABLE', 'UNSTABLE', 'UNINITIATED', 'STALE'].includes(await phase(page))), {
      timeout: 30_000,
    });
    // The phases from here: the one settled on, then each change after the content's save.
    const phases = [await phase(page)];
    const watch = setInterval(async () => {
      const p = await phase(page).catch(() => null);
      if (p && phases.at(-1) !== p) phases.push(p);
    }, 100);
    try {
      const restore = slowBuild(2000);
      try {
        await saveContent(call, `e2e-auto-${Date.now()}`, { auto: true });
        await eventually(async () => assert.ok(phases.includes('RUNNING') || phases.includes('VALIDATING'), `phases ${phases}`), {
          timeout: 20_000,
        });
        await eventually(async () => assert.equal(await phase(page), 'STABLE'), { timeout: 30_000 });
      } finally {
        restore();
      }
    } finally {
      clearInterval(watch);
      next.taskRunnerSettings.autoRun = false;
      const now = await call('GET', `settings/${DOMAIN_ID}/${portalId}`);
      await call('PUT', `settings/${DOMAIN_ID}/${portalId}`, { ...now.json, taskRunnerSettings: { ...now.json.taskRunnerSettings, autoRun: false } }, {
        'If-Match': now.etag,
      });
    }
    // No STALE between the save and its run: the auto run starts at once.
    const after = phases.slice(1);
    assert.ok(!after.includes('STALE') || after.indexOf('STALE') > after.indexOf('RUNNING'), `phases ${phases}`);
  });

  it('a live preview follows a commit: its link serves the committed content', { timeout: 60_000 }, async () => {
    const { call } = await openDashboard();
    const created = await call('POST', `preview/${DOMAIN_ID}/${portalId}`, { type: 'PORTAL_LIVE', branch });
    let preview = created.json;
    await eventually(
      async () => {
        preview = (await call('GET', `preview/${DOMAIN_ID}/${portalId}/${preview.id}`)).json;
        assert.equal(preview.status, 'READY');
      },
      { timeout: 30_000 },
    );
    const base = preview.link.slice(0, preview.link.indexOf('index.html'));
    const marker = `live-${Date.now()}`;
    await saveContent(call, `e2e-live-${Date.now()}`, { marker });
    await call('POST', `portal/${DOMAIN_ID}/${portalId}/commits`, { message: 'Live preview follows commits' });
    await eventually(
      async () => {
        const res = await fetch(`${base}en_GB/data.json`);
        assert.equal(res.status, 200);
        assert.ok((await res.text()).includes(marker), 'the live preview serves the commit');
      },
      { timeout: 40_000 },
    );
  });
});
