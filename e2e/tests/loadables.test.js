// Loadables (issue 14; spec 3 §2 loadable creation wizard and management list, §4 "Loadables"):
// on the demo Passenger Portal (UNIVERSAL), the wizard creates a loadable of the active branch
// and generates it (the portal's tasks build it in the sandbox); Manage Loadables shows it reach
// GENERATED live; a second user holding loadable approval approves it; the download is the
// deterministic package (a gzip'd tar whose first entry is manifest.json); a LOADABLE preview
// opens; the approved package is handed over to a directory target and shows DELIVERED.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { useE2E, apiSession, grantGroup, signIn, expectAccessible, expectVisible, expectHidden, expectURL, passengerPortal } from '../harness/index.js';
import { createLoadableByWizard, loadableRow, loadablesRoute } from '../harness/loadables.js';

const DOMAIN_ID = 1;
const APPROVER = { username: 'approver', password: 'approver-pass-1', firstName: 'Ann', lastName: 'Prover' };

// The hand-over target: a local directory (internal/handover "directory" kind).
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portalwright-e2e-handover-'));
const dropDir = path.join(work, 'drop');
fs.mkdirSync(dropDir);
const handoverConfig = path.join(work, 'handover.json');
fs.writeFileSync(
  handoverConfig,
  JSON.stringify({ targets: [{ name: 'unity-drop', system: 'unity', kind: 'directory', description: 'E2E drop', dir: dropDir }] }),
);

describe('loadables', { timeout: 300_000 }, () => {
  const e2e = useE2E({ server: { users: [APPROVER], args: ['--handover-config', handoverConfig] } });
  let portalId;
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    ({ id: portalId, branch } = await passengerPortal(admin, DOMAIN_ID));
    await grantGroup(
      admin,
      DOMAIN_ID,
      'Loadable approvers',
      ['portal_read', 'branch_read', 'loadable_read', 'loadable_approve'],
      [APPROVER.username],
    );
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  const screenUrl = (screen) => loadablesRoute(DOMAIN_ID, portalId, branch, screen);

  it('creates, generates, approves, downloads, previews and hands over a loadable', { timeout: 280_000 }, async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await signIn(page);
    await page.goto(screenUrl('dashboard'));
    // The Portal menu offers both entries for this UNIVERSAL portal.
    await expectVisible(page.getByText('Manage Portal', { exact: true }), { timeout: 20_000 });
    await page.getByText('Manage Portal', { exact: true }).click();
    await expectVisible(page.getByRole('menuitem', { name: 'Manage Loadables' }));
    await page.getByRole('menuitem', { name: 'Create Loadable' }).click();
    await expectURL(page, /\/loadables-create$/);

    // The wizard: source, details (the suggested name), copyright, review; then Manage Loadables
    // shows it reach GENERATED.
    const loadableName = await createLoadableByWizard(page, { afterValidate: () => expectAccessible(page, 'Create Loadable') });
    assert.match(loadableName, /^passenger-portal-portal-\d{8}/);
    const mine = loadableRow(page, loadableName);
    await expectVisible(mine, { timeout: 20_000 });
    await expectVisible(mine.getByText('Generated', { exact: true }), { timeout: 150_000 });
    await expectAccessible(page, 'Manage Loadables');

    // A second user with loadable approval approves it.
    const approverPage = await e2e.newPage();
    await signIn(approverPage, { username: APPROVER.username, password: APPROVER.password });
    await approverPage.goto(screenUrl('loadables-manage'));
    const theirs = loadableRow(approverPage, loadableName);
    await expectVisible(theirs, { timeout: 30_000 });
    await theirs.getByRole('button', { name: 'Approve' }).click();
    await expectVisible(theirs.getByText('Approved', { exact: true }), { timeout: 20_000 });
    await expectVisible(theirs.getByText(`Approved by ${APPROVER.username}`));

    // Download (the creator, back on the list): a gzip'd tar whose first entry is manifest.json.
    await page.goto(screenUrl('dashboard'));
    await expectHidden(page.getByRole('heading', { level: 1, name: 'Manage Loadables' }), { timeout: 20_000 });
    await page.goto(screenUrl('loadables-manage'));
    await expectVisible(mine.getByText('Approved', { exact: true }), { timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), mine.getByRole('button', { name: 'Download' }).click()]);
    assert.match(download.suggestedFilename(), new RegExp(`^${loadableName}-1\\.0\\.\\d+\\.tar\\.gz$`));
    const bytes = fs.readFileSync(await download.path());
    assert.equal(bytes[0], 0x1f);
    assert.equal(bytes[1], 0x8b);
    const tar = zlib.gunzipSync(bytes);
    const firstName = tar.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    assert.equal(firstName, 'manifest.json');

    // A LOADABLE preview: its link opens without signing in.
    await mine.getByRole('button', { name: 'Preview' }).click();
    const ask = page.getByRole('dialog', { name: 'Preview loadable' });
    await ask.getByRole('button', { name: 'Preview' }).click();
    const detail = page.getByRole('dialog', { name: 'Preview' });
    const link = detail.getByRole('link', { name: 'Preview link' });
    await expectVisible(link, { timeout: 60_000 });
    const href = await link.getAttribute('href');
    assert.match(href, /\/api\/v1\/preview\/pwv1_[^/]+\/\d+\/\d+\/LOADABLE\/1\.0\.\d+\//);
    const res = await fetch(href);
    assert.equal(res.status, 200, `the preview link answers 200, not ${res.status}`);
    await detail.getByRole('button', { name: 'Close' }).click();

    // Hand over to the directory target: DELIVERED, and the package is in the folder.
    await mine.getByRole('button', { name: 'Hand over' }).click();
    const handOver = page.getByRole('dialog', { name: 'Hand over loadable' });
    await handOver.getByRole('radio', { name: /unity-drop \(unity\)/ }).check();
    await handOver.getByRole('button', { name: 'Hand over' }).click();
    await mine.getByRole('button', { name: 'Hand-overs' }).click();
    const deliveries = page.getByRole('table', { name: `Hand-overs of ${loadableName}` });
    await expectVisible(deliveries.getByText('DELIVERED', { exact: true }), { timeout: 60_000 });
    assert.ok(fs.readdirSync(dropDir).some((f) => f.startsWith(loadableName) && f.endsWith('.tar.gz')), `the package in ${dropDir}`);
  });
});
