// Release readiness (issue 29; docs/readiness.md): a broken link saved in page source mode on the
// demo Crew Portal (the designer's Link Manager only offers the sitemap's pages, so it cannot
// make one) is announced by one toast, appears on the Readiness screen, and its Open lands in
// source mode at the link's line; on the demo Passenger Portal (UNIVERSAL) with the gate on, the
// approval of a loadable whose commit has a readiness error is refused, the override dialog asks
// a reason, and with one the loadable is approved and shows the override.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, apiSession, signIn, expectVisible, expectHidden, expectEnabled, expectDisabled, expectURL, expectAccessible,
  eventually, passengerPortal,
} from '../harness/index.js';
import { crewPortal } from '../harness/translations.js';
import { aceValue, goTo, pageRoute, setAceValue, sourceMode } from '../harness/pages.js';

const DOMAIN_ID = 1;
const screenRoute = (portalId, branch, screen) =>
  `/#/domain/${DOMAIN_ID}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/en_GB/${screen}`;

describe('readiness', { timeout: 300_000 }, () => {
  const e2e = useE2E();

  it('a broken link saved in source mode is on the Readiness screen, and Open lands on its line', { timeout: 120_000 }, async () => {
    const admin = await apiSession(e2e.server);
    const { id: portalId, branch } = await crewPortal(admin, DOMAIN_ID);
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await signIn(page);

    // Source mode of the home page: a link to a page the sitemap does not have.
    const src = sourceMode(page);
    await goTo(page, pageRoute(DOMAIN_ID, portalId, branch, 'home', 'source-mode'));
    await expectVisible(src.heading, { timeout: 20_000 });
    await expectVisible(page.getByRole('textbox', { name: /^HTML source of / }), { timeout: 20_000 });
    await eventually(async () => assert.ok((await aceValue(page)).length > 0, 'the editor holds the page'));
    const before = await aceValue(page);
    const broken = '<p><a href="#/no-such-page">Broken e2e link</a></p>';
    const edited = `${before.replace(/\n*$/, '')}\n${broken}\n`;
    const line = edited.split('\n').findIndex((l) => l.includes('no-such-page')) + 1;
    await setAceValue(page, edited);
    await expectEnabled(src.save);
    await src.save.click();
    await expectVisible(src.savedToast, { timeout: 20_000 });

    // One toast for the save, with Show: the Readiness screen (a prompt: an alert dialog).
    const toast = page.getByRole('alertdialog').filter({ hasText: 'Saved. This change added 1 readiness error.' });
    await expectVisible(toast, { timeout: 20_000 });
    await toast.getByRole('button', { name: 'Show' }).click();
    await expectURL(page, /\/readiness$/);
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Readiness' }), { timeout: 20_000 });

    // The finding, grouped under its rule, at pages/home.html:<line>.
    const table = page.getByRole('table', { name: 'Links to missing pages' });
    await expectVisible(table, { timeout: 30_000 });
    const row = table.getByRole('row').filter({ hasText: 'no-such-page' }).filter({ hasText: `pages/home.html:${line}` });
    await expectVisible(row);
    await expectVisible(row.getByText('Error', { exact: true }));
    await expectAccessible(page, 'Readiness');

    // Grouped by file: the same finding under pages/home.html.
    await page.getByRole('button', { name: 'File', exact: true }).click();
    const byFile = page.getByRole('table', { name: 'pages/home.html', exact: true });
    await expectVisible(byFile.getByRole('row').filter({ hasText: 'no-such-page' }));
    await page.getByRole('button', { name: 'Rule', exact: true }).click();

    // Open: source mode of the home page at the link's line.
    await row.getByRole('link', { name: 'Open' }).click();
    await expectURL(page, new RegExp(`/pages/home/source-mode\\?line=${line}$`));
    await expectVisible(src.heading, { timeout: 20_000 });
    await eventually(async () => {
      const text = await aceValue(page);
      assert.match(text.split('\n')[line - 1] ?? '', /no-such-page/, `line ${line} holds the link`);
    });

    // Ignore it with a reason: it leaves the findings for the Ignored list; Undo brings it back.
    await goTo(page, screenRoute(portalId, branch, 'readiness'));
    await expectVisible(row, { timeout: 30_000 });
    await row.getByRole('button', { name: 'Ignore' }).click();
    const ignore = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: 'Ignore finding' }) });
    await expectVisible(ignore);
    await expectDisabled(ignore.getByRole('button', { name: 'Ignore', exact: true }));
    await ignore.getByRole('textbox', { name: /Reason/ }).fill('The page arrives with the next sitemap');
    await ignore.getByRole('button', { name: 'Ignore', exact: true }).click();
    await expectHidden(ignore);
    const ignored = page.getByRole('table', { name: 'Ignored findings' });
    const ignoredRow = ignored.getByRole('row').filter({ hasText: 'The page arrives with the next sitemap' });
    await expectVisible(ignoredRow, { timeout: 20_000 });
    await expectHidden(row);
    await ignoredRow.getByRole('button', { name: 'Undo' }).click();
    await expectVisible(table.getByRole('row').filter({ hasText: 'no-such-page' }), { timeout: 20_000 });
  });

  it('the gate refuses approving a loadable whose commit has an error; a reason approves it over', { timeout: 280_000 }, async () => {
    // (An admin sign-in in the browser ends this session: one session per user.)
    const admin = await apiSession(e2e.server);
    const { id: portalId, branch } = await passengerPortal(admin, DOMAIN_ID);
    const base = `loadable/${DOMAIN_ID}/${portalId}`;

    // A commit with a missing image in a style sheet (the build passes, readiness finds it).
    await admin.ok('GET', `portal/${DOMAIN_ID}/${portalId}/open?branch=${encodeURIComponent(branch)}`);
    await admin.ok(
      'POST',
      `assets/${DOMAIN_ID}/${portalId}/src/assets/css/readiness-e2e.css`,
      { data: 'body { background: url(../img/nowhere-e2e.png); }\n' },
      { headers: { 'If-Match': '0' } },
    );
    await admin.ok('POST', `portal/${DOMAIN_ID}/${portalId}/commits`, { message: 'A missing image' });

    // The gate on.
    const settings = await admin.ok('GET', `readiness/${DOMAIN_ID}/${portalId}/settings`);
    await admin.ok('PUT', `readiness/${DOMAIN_ID}/${portalId}/settings`, { ...settings, gate: true });

    // A generated loadable of that commit.
    const created = await admin.ok('POST', base, {
      name: 'readiness-e2e',
      partNumber: 'PW-POR-READY',
      versionPrefix: '1.0',
      type: 'PORTAL',
      gitRef: branch,
      copyrightData: { metaData: { accept: true, ipAddress: '127.0.0.1' } },
    });
    await admin.ok('POST', `${base}/generate/${created.id}`);
    await eventually(
      async () => {
        const list = await admin.ok('GET', base);
        const l = list.find((x) => x.id === created.id);
        assert.equal(l?.status, 'GENERATED', `status ${l?.status} ${JSON.stringify(l?.error ?? null)}`);
      },
      { timeout: 180_000 },
    );

    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await signIn(page);
    await page.goto(screenRoute(portalId, branch, 'loadables-manage'));
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'readiness-e2e', exact: true }) });
    await expectVisible(row, { timeout: 30_000 });
    // The commit's readiness in its row.
    await expectVisible(row.getByText(/^\d+ errors?\b/), { timeout: 30_000 });

    // Approve: refused by the gate; the dialog shows the commit's readiness and asks a reason.
    await row.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: 'Approve despite readiness errors' }) });
    await expectVisible(dialog, { timeout: 20_000 });
    await expectVisible(dialog.getByText('nowhere-e2e.png').first(), { timeout: 30_000 });
    const approve = dialog.getByRole('button', { name: 'Approve anyway' });
    await expectDisabled(approve);
    await expectAccessible(page, 'Approve despite readiness errors');
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('The image ships with the next content drop');
    await expectEnabled(approve);
    await approve.click();
    await expectHidden(dialog, { timeout: 20_000 });
    await expectVisible(row.getByText('Approved', { exact: true }), { timeout: 20_000 });
    await expectVisible(row.getByText(/^Approved over \d+ readiness errors?: The image ships with the next content drop$/));
    const list = await (await apiSession(e2e.server)).ok('GET', base);
    const approved = list.find((x) => x.id === created.id);
    assert.equal(approved.approvalOverride?.reason, 'The image ships with the next content drop');
    assert.ok(approved.approvalOverride.errors >= 1, 'the errors are counted');
  });
});
