// A day of real editing (issue 22 items 4, 5, 8, 9, 11), on the demo portals:
// - the JSON editor on a long form: rows titled by their first property, plain rows without
//   'Highlights-1 *', Save and Cancel in view, a button to the first invalid field, an image
//   field's thumbnail, dimensions and missing-image placeholder;
// - source mode: typing a closing tag in full gives it once; unbalanced markup asks first;
// - Manage Loadables live: an approver sees a new loadable and its generation, the creator
//   sees 'Approved by …' without leaving the screen;
// - the whitelist check by origin: 'Add all from this origin' and adding several at once;
// - the spec's wording where the product shows it: 'The field is required.' (a required number
//   cleared) and 'Unsupported schema type' (a field without a type) in the JSON editor, 'The new
//   password must be confirmed.' in the profile's Login Details.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, apiSession, apiClient, grantGroup, signIn, expectAccessible, expectVisible, expectHidden, expectEnabled,
  expectDisabled, eventually, explorerRoute, shell,
} from '../harness/index.js';
import { crewPortal } from '../harness/translations.js';
import { pageRoute, sourceMode, aceValue, setAceValue, goTo, readWorkspaceFile } from '../harness/pages.js';

const DOMAIN_ID = 1;
const APPROVER = { username: 'approver', password: 'approver-pass-1', firstName: 'Ann', lastName: 'Prover' };
const STEP = 60_000;

describe('daily editing', { timeout: 300_000 }, () => {
  const e2e = useE2E({ server: { users: [APPROVER] } });
  let crew;

  before(async () => {
    const admin = await apiSession(e2e.server);
    crew = await crewPortal(admin, DOMAIN_ID);
    await grantGroup(
      admin,
      DOMAIN_ID,
      'Loadable approvers',
      ['portal_read', 'branch_read', 'loadable_read', 'loadable_approve'],
      [APPROVER.username],
    );
  });

  const branchSeg = () => crew.branch.replace(/\//g, ':');
  /** Writes a workspace file through the asset API with the browser's own token. */
  async function writeFile(token, portalId, rel, data) {
    const res = await e2e.server.fetch(`/api/v1/assets/${DOMAIN_ID}/${portalId}/src/${rel}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'If-Match': '"0"' },
      body: JSON.stringify({ data }),
    });
    assert.ok(res.status < 300, `write ${rel}: HTTP ${res.status} ${await res.text()}`);
  }

  it('item 4: the JSON editor on a long form', { timeout: STEP }, async () => {
    const page = await e2e.newPage({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
    const login = await signIn(page);
    // The portal opened (its workspace ready) before files are written into it.
    await page.goto(explorerRoute(DOMAIN_ID, crew.id, crew.branch, '/content'));
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 20_000 });
    await expectVisible(page.getByRole('tree').first(), { timeout: 20_000 });
    const schema = {
      type: 'object',
      title: 'Trip',
      required: ['hero', 'cover', 'destinations'],
      properties: {
        hero: { type: 'string', title: 'Hero image', links: [{ mediaType: 'image' }] },
        cover: { type: 'string', title: 'Cover image', links: [{ mediaType: 'image' }] },
        highlights: { type: 'array', title: 'Highlights', items: { type: 'string' } },
        destinations: {
          type: 'array',
          title: 'Destinations',
          items: {
            type: 'object',
            title: 'Destination',
            required: ['name'],
            properties: { name: { type: 'string', title: 'Name' }, code: { type: 'string', title: 'Code' } },
          },
        },
      },
    };
    const destinations = Array.from({ length: 24 }, (_, i) => ({ name: `City ${i + 1}`, code: `C${i + 1}` }));
    destinations[0].name = 'Paris';
    const data = { hero: 'assets/img/aircraft.png', cover: '', highlights: ['Beach', 'Old town'], destinations };
    await writeFile(login.id_token, crew.id, 'content/e2e-trip.json.schema', JSON.stringify(schema, null, 2));
    await writeFile(login.id_token, crew.id, 'content/e2e-trip.json', JSON.stringify(data, null, 2));

    await page.goto(`${explorerRoute(DOMAIN_ID, crew.id, crew.branch, '/content')}&edit=${encodeURIComponent('/content/e2e-trip.json')}&mode=json`);
    await expectVisible(page.getByRole('heading', { name: 'Editing: /content/e2e-trip.json' }), { timeout: 20_000 });
    await expectVisible(page.locator('#root_destinations_0_name'), { timeout: 20_000 });

    // Rows are titled by their first property, not all 'Destination'.
    await expectVisible(page.getByText('Paris', { exact: true }).first());
    assert.equal(await page.getByText('Destination', { exact: true }).count(), 0, 'no row is titled "Destination"');
    // Plain rows: 'Highlights 1', never 'Highlights-1 *'.
    assert.equal(await page.getByText(/Highlights-1/).count(), 0, 'no "Highlights-1" label');
    await expectVisible(page.getByRole('textbox', { name: 'Highlights 1', exact: true }));

    // Save and Cancel stay in view on the long form.
    const bar = page.getByRole('group', { name: 'Form actions' });
    const inView = async (locator) => {
      const box = await locator.boundingBox();
      return !!box && box.y >= 0 && box.y + box.height <= 800;
    };
    await eventually(async () => assert.ok(await inView(bar.getByRole('button', { name: 'Cancel', exact: true })), 'Cancel in view'));
    assert.ok(await inView(bar.getByRole('button', { name: 'Save', exact: true })), 'Save in view');

    // The first invalid field is one click away: a name cleared far down, the window back at the top.
    await page.locator('#root_destinations_17_name').fill('');
    await expectVisible(page.getByText('New Entry', { exact: true }).first());
    await page.getByRole('heading', { name: 'Editing: /content/e2e-trip.json' }).click();
    await page.evaluate(() => { window.scrollTo(0, 0); document.querySelector('main')?.scrollTo(0, 0); });
    assert.ok(!(await inView(page.locator('#root_destinations_17_name'))), 'the cleared field is out of view');
    const go = bar.getByRole('button', { name: /^Go to the (first of \d+ )?invalid field/ });
    await expectVisible(go);
    await go.click();
    await eventually(async () => assert.equal(await page.evaluate(() => document.activeElement?.id), 'root_destinations_17_name'));
    assert.ok(await inView(page.locator('#root_destinations_17_name')), 'the invalid field is in view');

    // Image fields: the chosen image's thumbnail and dimensions; an empty one the placeholder.
    const hero = page.getByRole('group', { name: /^Hero image\b.* preview$/ });
    await expectVisible(hero.getByRole('img', { name: 'aircraft.png' }), { timeout: 20_000 });
    await expectVisible(hero.getByLabel('Dimensions'), { timeout: 20_000 });
    assert.match(await hero.getByLabel('Dimensions').innerText(), /^\d+ x \d+$/);
    const cover = page.getByRole('group', { name: /^Cover image\b.* preview$/ });
    await expectVisible(cover.getByRole('img', { name: 'Missing image' }));
    await expectAccessible(page, 'JSON editor (long form)');
  });

  it('item 5: source mode types a closing tag once and warns about unbalanced markup', { timeout: STEP }, async () => {
    const page = await e2e.newPage({ bypassCSP: true });
    const login = await signIn(page);
    const userId = login.profile.user.id;
    const src = sourceMode(page);
    await goTo(page, pageRoute(DOMAIN_ID, crew.id, crew.branch, 'about', 'source-mode'));
    await expectVisible(src.heading, { timeout: 20_000 });
    const editor = page.getByRole('textbox', { name: /^HTML source of / });
    await expectVisible(editor, { timeout: 20_000 });
    const original = readWorkspaceFile(e2e.server, userId, crew.id, 'pages/about.html');
    await eventually(async () => assert.equal(await aceValue(page), original));

    // Typed in full at the end: the tag once.
    await setAceValue(page, '<div>\n</div>\n');
    await page.locator('.ace_content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('<p>Typed</p>');
    await eventually(async () => assert.equal(await aceValue(page), '<div>\n</div>\n<p>Typed</p>'));

    // Unbalanced: a warning before the page is written; Keep editing writes nothing.
    await page.keyboard.type('</p>');
    await expectEnabled(src.save);
    await src.save.click();
    const dialog = page.getByRole('dialog', { name: 'Unbalanced markup' });
    await expectVisible(dialog);
    await expectVisible(dialog.getByText(/Line 3: <\/p> closes an element that is not open/));
    await expectAccessible(page, 'Source mode: unbalanced markup warning');
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await expectHidden(dialog);
    assert.equal(readWorkspaceFile(e2e.server, userId, crew.id, 'pages/about.html'), original, 'nothing written');
    // Save anyway writes it.
    await src.save.click();
    await dialog.getByRole('button', { name: 'Save anyway' }).click();
    await expectVisible(src.savedToast, { timeout: 20_000 });
    assert.equal(readWorkspaceFile(e2e.server, userId, crew.id, 'pages/about.html'), '<div>\n</div>\n<p>Typed</p></p>');
  });

  it('item 8: Manage Loadables is live for the approver and the creator', { timeout: STEP }, async () => {
    const admin = await apiSession(e2e.server);
    const { id: portalId, branch } = await (async () => {
      const portals = await admin.ok('GET', `portal/${DOMAIN_ID}`);
      const p = portals.find((x) => x.name === 'Passenger Portal');
      return { id: p.id, branch: p.activeBranch || 'master' };
    })();
    const screen = `/#/domain/${DOMAIN_ID}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/en_GB/loadables-manage`;
    const row = (page, name) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

    const creatorPage = await e2e.newPage();
    const creatorLogin = await signIn(creatorPage);
    const creator = apiClient(e2e.server, creatorLogin.id_token);
    await creator.ok('GET', `portal/${DOMAIN_ID}/${portalId}/open`);
    await creatorPage.goto(screen);
    await expectVisible(creatorPage.getByRole('heading', { level: 1, name: 'Manage Loadables' }), { timeout: 20_000 });

    const approverPage = await e2e.newPage({ bypassCSP: true });
    const approverLogin = await signIn(approverPage, { username: APPROVER.username, password: APPROVER.password });
    const approver = apiClient(e2e.server, approverLogin.id_token);
    await approverPage.goto(screen);
    await expectVisible(approverPage.getByRole('heading', { level: 1, name: 'Manage Loadables' }), { timeout: 20_000 });
    await expectVisible(approverPage.getByRole('table'), { timeout: 20_000 });

    // A new loadable reaches the approver's open list.
    const name = `live-${Date.now()}`;
    const created = await creator.ok('POST', `loadable/${DOMAIN_ID}/${portalId}`, {
      name, partNumber: 'PW-POR-LIVE', versionPrefix: '1.0', type: 'PORTAL', gitRef: branch,
      copyrightData: { metaData: { accept: true, ipAddress: '203.0.113.9' } },
    });
    await expectVisible(row(approverPage, name), { timeout: 10_000 });
    await expectAccessible(approverPage, 'Manage Loadables (live)');

    // Generated: the approver sees it without leaving; the approval reaches the creator.
    await creator.ok('POST', `loadable/${DOMAIN_ID}/${portalId}/generate/${created.id}`);
    await expectVisible(row(approverPage, name).getByText('Generated', { exact: true }), { timeout: 40_000 });
    await approver.ok('POST', `loadable/${DOMAIN_ID}/${portalId}/approve/${created.id}`);
    await expectVisible(row(creatorPage, name).getByText(`Approved by ${APPROVER.username}`), { timeout: 10_000 });
  });

  it('item 9: the whitelist check adds by origin and in bulk', { timeout: STEP }, async () => {
    const page = await e2e.newPage({ bypassCSP: true });
    const login = await signIn(page);
    await page.goto(`/#/domain/${DOMAIN_ID}/portal/${crew.id}/branch/${branchSeg()}/en_GB/whitelist`);
    await expectVisible(page.getByRole('heading', { name: 'Whitelist', level: 1 }), { timeout: 20_000 });
    const origins = ['https://cdn.one.example.com', 'https://img.two.example.com', 'https://api.three.example.com'];
    const lines = [];
    for (const [i, o] of origins.entries()) for (let n = 0; n < 4 + i; n++) lines.push(`<a href="${o}/path/${n}">x</a>`);
    await writeFile(login.id_token, crew.id, 'pages/e2e-origins.html', `<div>\n${lines.join('\n')}\n</div>\n`);

    await page.getByRole('button', { name: 'Check portal' }).click();
    const byOrigin = page.getByRole('table', { name: 'Not allowed, by origin' });
    await expectVisible(byOrigin, { timeout: 20_000 });
    const originRow = (o) => byOrigin.getByRole('row').filter({ has: page.getByRole('rowheader', { name: o, exact: true }) });
    for (const o of origins) await expectVisible(originRow(o));
    await expectVisible(originRow(origins[0]).getByRole('cell', { name: '4', exact: true }));
    await expectAccessible(page, 'Whitelist check by origin');

    const entries = page.getByRole('table', { name: 'Whitelist' });
    // One origin, all its URLs at once.
    await originRow(origins[0]).getByRole('button', { name: `Add all from this origin: ${origins[0]} (4 URLs)` }).click();
    await expectVisible(entries.getByText(origins[0], { exact: true }));
    // Several selected at once.
    const addSelected = page.getByRole('button', { name: /^Add selected/ });
    await expectDisabled(addSelected);
    await page.getByRole('checkbox', { name: `Select ${origins[1]}` }).check();
    await page.getByRole('checkbox', { name: `Select ${origins[2]}` }).check();
    await page.getByRole('button', { name: 'Add selected (2)' }).click();
    for (const o of origins) await expectVisible(entries.getByText(o, { exact: true }));
    for (const o of origins) await expectDisabled(originRow(o).getByRole('button', { name: `Added: ${o}` }));
  });

  it("item 11: the spec's wording of the JSON editor's and the password form's messages", { timeout: STEP }, async () => {
    const page = await e2e.newPage({ bypassCSP: true });
    const login = await signIn(page);
    await page.goto(explorerRoute(DOMAIN_ID, crew.id, crew.branch, '/content'));
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 20_000 });
    await expectVisible(page.getByRole('tree').first(), { timeout: 20_000 });
    const schema = {
      type: 'object',
      title: 'Cabin',
      required: ['seats'],
      properties: { seats: { type: 'integer', title: 'Seats' }, legacy: { title: 'Legacy' } },
    };
    await writeFile(login.id_token, crew.id, 'content/e2e-cabin.json.schema', JSON.stringify(schema, null, 2));
    await writeFile(login.id_token, crew.id, 'content/e2e-cabin.json', JSON.stringify({ seats: 180, legacy: 'x' }, null, 2));

    await page.goto(`${explorerRoute(DOMAIN_ID, crew.id, crew.branch, '/content')}&edit=${encodeURIComponent('/content/e2e-cabin.json')}&mode=json`);
    await expectVisible(page.getByRole('heading', { name: 'Editing: /content/e2e-cabin.json' }), { timeout: 20_000 });
    const seats = page.locator('#root_seats');
    await expectVisible(seats, { timeout: 20_000 });
    // A field of no type the form can show: 'Unsupported schema type'.
    await expectVisible(page.getByText('Unsupported schema type').first());
    // A required number cleared: 'The field is required.'
    await seats.fill('');
    await expectVisible(page.getByText('The field is required.', { exact: true }).first());
    await expectAccessible(page, 'JSON editor with a required number cleared');

    // Login Details: the confirmation left empty.
    await shell(page).profileButton.click();
    await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await expectVisible(dialog);
    await dialog.getByRole('tab', { name: 'Login Details' }).click();
    await dialog.getByLabel(/^New password/).fill('new-pass-22');
    await dialog.getByLabel(/^Confirm new password/).focus();
    await dialog.getByLabel(/^Confirm new password/).blur();
    await expectVisible(dialog.getByText('The new password must be confirmed.', { exact: true }));
    await expectDisabled(dialog.getByRole('button', { name: 'Save' }));
  });
});
