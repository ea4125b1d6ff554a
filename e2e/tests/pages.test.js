// Pages (issue 12; spec 2 §2 "Routes", "Page designer and sitemap", §4 "Pages and designer";
// spec 3 §2 Page Manager, search) on the demo Crew Portal (domain 1, portal 1):
// - the Page Manager adds 'E2E Notices' (id e2e-notices) to the sitemap tree: sitemap.json and
//   pages/e2e-notices.html in the workspace; the master page's source (index.html, Ace) gets a
//   'Notices' link in its navigation; the designer's frame shows the link and, clicked, the new
//   page; the header counts the three files;
// - source mode on the safety page: the HTML in Ace, Save writes pages/safety.html, the header
//   counts it, 'Designer mode' returns to …/pages/safety/designer-mode with the edit in the frame;
// - the header search finds a phrase of the safety page after its debounce; the page hit opens
//   the page in the designer; the search box and Select Page are absent on the limited (legacy)
//   and the universal (passenger) portals.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  useE2E, signIn, apiClient, expectVisible, expectHidden, expectEnabled, expectDisabled, expectText, expectURL,
  eventually, shell,
} from '../harness/index.js';
import { crewPortal } from '../harness/translations.js';
import {
  pageRoute, pageManagerRoute, goTo, designer, openDesigner, expectFramePage, workspaceFile, readWorkspaceFile,
  localChangePaths, pageManager, sourceMode, aceValue, setAceValue, headerSearch,
} from '../harness/pages.js';

const DOMAIN_ID = 1;
const LONG = 90_000;
// The header's local changes refresh every 10 s (a save refreshes them at once).
const REFRESH = 25_000;

describe('pages', { timeout: 300_000 }, () => {
  const e2e = useE2E();
  let portalId;
  let branch;
  let portals;

  before(async () => {
    const token = (await e2e.server.apiLogin('admin', e2e.server.adminPassword)).id_token;
    const client = apiClient(e2e.server, token);
    ({ id: portalId, branch } = await crewPortal(client, DOMAIN_ID));
    assert.equal(portalId, 1, 'the Crew Portal is portal 1');
    portals = await client.ok('GET', `portal/${DOMAIN_ID}`);
  });

  /** Signs in (remembered: a reload keeps the session) and gives the browser session's API client. */
  async function start() {
    const page = await e2e.newPage();
    const login = await signIn(page, { remember: true });
    return { page, userId: login.profile.user.id, client: apiClient(e2e.server, login.id_token) };
  }

  it('adds a page in the Page Manager and links to it from the master page navigation', { timeout: LONG }, async () => {
    const { page, userId, client } = await start();
    const pm = pageManager(page);
    await goTo(page, pageManagerRoute(DOMAIN_ID, portalId, branch));
    await expectVisible(pm.heading, { timeout: 20_000 });
    await expectVisible(pm.tree, { timeout: 20_000 });
    for (const id of ['master-page', 'home', 'flight-info', 'weather', 'crew-schedule', 'safety', 'contacts']) await expectVisible(pm.item(id));
    assert.equal(await pm.item('e2e-notices').count(), 0);
    const before = await localChangePaths(client, DOMAIN_ID, portalId);

    // Add page under the master page (selected at first): the id follows the title.
    await pm.toolbar.getByRole('button', { name: 'Add page', exact: true }).click();
    await expectVisible(pm.addDialog);
    await pm.addDialog.getByRole('textbox', { name: /^Title/ }).fill('E2E Notices');
    const id = pm.addDialog.getByRole('textbox', { name: /^Page id/ });
    await eventually(async () => assert.equal(await id.inputValue(), 'e2e-notices'));
    await pm.addDialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expectHidden(pm.addDialog);
    await expectVisible(page.getByRole('status').filter({ hasText: "Page 'E2E Notices' added." }).last());
    await expectVisible(pm.item('e2e-notices'));
    assert.equal(await pm.item('e2e-notices').getAttribute('aria-level'), '2', 'a top-level page, under the master page');
    await expectText(pm.details, 'e2e-notices');

    // The workspace: sitemap.json lists it, its HTML file exists.
    const sitemap = JSON.parse(readWorkspaceFile(e2e.server, userId, portalId, 'sitemap.json'));
    const added = sitemap.find((p) => p.id === 'e2e-notices');
    assert.ok(added, `e2e-notices in sitemap.json: ${JSON.stringify(sitemap.map((p) => p.id))}`);
    assert.equal(added.title, 'E2E Notices');
    assert.equal(added.url, '/pages/e2e-notices.html');
    assert.ok(fs.existsSync(workspaceFile(e2e.server, userId, portalId, 'pages/e2e-notices.html')), 'pages/e2e-notices.html exists');
    assert.match(readWorkspaceFile(e2e.server, userId, portalId, 'pages/e2e-notices.html'), /E2E Notices/);

    // The master page's source: a Notices link in the main navigation.
    const src = sourceMode(page);
    await goTo(page, pageRoute(DOMAIN_ID, portalId, branch, 'master-page', 'source-mode'));
    await expectVisible(src.heading, { timeout: 20_000 });
    await expectVisible(page.getByRole('textbox', { name: /^HTML source of / }), { timeout: 20_000 });
    const indexHtml = readWorkspaceFile(e2e.server, userId, portalId, 'index.html');
    await eventually(async () => assert.equal(await aceValue(page), indexHtml, 'the editor holds index.html'));
    await expectDisabled(src.save);
    const link = '<a href="#/e2e-notices">Notices</a>';
    const edited = indexHtml.replace(/(<nav class="pw-nav"[^>]*>\n)/, `$1      ${link}\n`);
    assert.notEqual(edited, indexHtml, 'the nav was found in index.html');
    await setAceValue(page, edited);
    await expectEnabled(src.save);
    await src.save.click();
    await expectVisible(src.savedToast);
    await expectDisabled(src.save);
    assert.equal(readWorkspaceFile(e2e.server, userId, portalId, 'index.html'), edited, 'index.html saved as edited');

    // The header counts the new files.
    const after = await localChangePaths(client, DOMAIN_ID, portalId);
    for (const file of ['sitemap.json', 'pages/e2e-notices.html', 'index.html']) assert.ok(after.includes(file), `${file} is a local change: ${after}`);
    assert.equal(after.length, new Set([...before, 'sitemap.json', 'pages/e2e-notices.html', 'index.html']).size, `${before} → ${after}`);
    await expectVisible(shell(page).localChanges(after.length), { timeout: REFRESH });

    // The designer: the frame's navigation has the link; clicked, the engine routes to the new page.
    const d = designer(page);
    await openDesigner(page, pageRoute(DOMAIN_ID, portalId, branch, 'home'), '[data-pw-widget="home-hero"] h1');
    const nav = d.frame.getByRole('navigation', { name: 'Main navigation' });
    const notices = nav.getByRole('link', { name: 'Notices', exact: true });
    await expectVisible(notices);
    assert.equal(await notices.getAttribute('href'), '#/e2e-notices');
    await notices.click();
    await expectText(d.frame.locator('main h1'), 'E2E Notices');
    assert.equal(await d.frame.locator('[data-pw-widget="home-hero"]').count(), 0, 'the home page is gone from the outlet');
    await eventually(async () => assert.equal(await notices.getAttribute('aria-current'), 'page'));
    // The new page opens in the designer on its own route too.
    await openDesigner(page, pageRoute(DOMAIN_ID, portalId, branch, 'e2e-notices'), 'main h1');
    await expectText(d.frame.locator('main h1'), 'E2E Notices');
    await expectVisible(d.pageButton('E2E Notices'));
  });

  it('edits the safety page in source mode, saves it and returns to the designer on the same page', { timeout: LONG }, async () => {
    const { page, userId, client } = await start();
    const src = sourceMode(page);
    const d = designer(page);

    // From the designer's toolbar to source mode.
    await openDesigner(page, pageRoute(DOMAIN_ID, portalId, branch, 'safety'), 'main h1');
    await expectText(d.frame.locator('main h1'), 'Safety');
    await d.sourceMode.click();
    await expectURL(page, /\/pages\/safety\/source-mode$/);
    await expectVisible(src.heading, { timeout: 20_000 });
    await expectVisible(src.editor('Safety'), { timeout: 20_000 });
    await expectText(page.getByTestId('source-page'), 'Safety');
    const original = readWorkspaceFile(e2e.server, userId, portalId, 'pages/safety.html');
    await eventually(async () => assert.equal(await aceValue(page), original, 'the editor holds pages/safety.html'));
    await expectDisabled(src.save);
    const before = await localChangePaths(client, DOMAIN_ID, portalId);

    // Typed at the end of the source (the keyboard, as an author would).
    await page.locator('.ace_content').click();
    await page.keyboard.press('Control+End');
    const added = '<p class="e2e-note">Checked by e2e.</p>';
    await page.keyboard.type(added);
    await eventually(async () => assert.ok((await aceValue(page)).includes(added), 'typed into Ace'));
    await expectEnabled(src.save);
    await src.save.click();
    await expectVisible(src.savedToast);
    await expectDisabled(src.save);
    const saved = readWorkspaceFile(e2e.server, userId, portalId, 'pages/safety.html');
    assert.ok(saved.startsWith(original.trimEnd()), `the original is kept: ${JSON.stringify(saved)}`);
    assert.ok(saved.includes(added), `the typed text is on disk: ${JSON.stringify(saved)}`);

    const after = await localChangePaths(client, DOMAIN_ID, portalId);
    assert.ok(after.includes('pages/safety.html'), `pages/safety.html is a local change: ${after}`);
    assert.equal(after.length, new Set([...before, 'pages/safety.html']).size);
    await expectVisible(shell(page).localChanges(after.length), { timeout: REFRESH });

    // 'Designer mode' keeps the page; the frame shows the saved source.
    await src.designerMode.click();
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/[^/]+\/en_GB\/pages\/safety\/designer-mode$/);
    await expectVisible(d.heading, { timeout: 20_000 });
    await expectVisible(d.pageButton('Safety'));
    await expectFramePage(page, '.e2e-note');
    await expectText(d.frame.locator('.e2e-note'), 'Checked by e2e.');
  });

  it('searches the portal from the header and opens the page hit in the designer', { timeout: LONG }, async () => {
    const { page } = await start();
    const search = headerSearch(page);
    const d = designer(page);
    await openDesigner(page, pageRoute(DOMAIN_ID, portalId, branch, 'home'), '[data-pw-widget="home-hero"] h1');
    await expectVisible(search.box);
    await search.box.click();
    await expectText(search.status, 'Please type something in the search box to search in the selected portal.');

    // A phrase of the safety page's text (pages/safety.html), answered after the debounce.
    const phrases = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (/\/api\/v1\/portal\/1\/1\/search$/.test(url.pathname)) phrases.push(url.searchParams.get('phrase'));
    });
    const [response] = await Promise.all([
      page.waitForResponse((r) => /\/api\/v1\/portal\/1\/1\/search\?/.test(r.url()) && r.request().method() === 'GET', { timeout: 15_000 }),
      // Keys 30 ms apart: well inside the 500 ms debounce.
      search.box.pressSequentially('equipment before', { delay: 30 }),
    ]);
    assert.equal(response.status(), 200);
    await expectVisible(search.results);
    assert.deepEqual(phrases, ['equipment before'], 'one search, for the whole phrase (debounced)');
    const hit = search.results.getByRole('option').filter({ hasText: 'Safety' }).first();
    await expectVisible(hit);
    await expectText(hit, 'Page text · Safety');
    await hit.click();
    await expectURL(page, /#\/domain\/1\/portal\/1\/branch\/[^/]+\/en_GB\/pages\/safety\/designer-mode$/);
    await expectHidden(search.results);
    await expectVisible(d.pageButton('Safety'), { timeout: 20_000 });
    await expectFramePage(page, 'main h1');
    await expectText(d.frame.locator('main p').first(), 'Check the equipment before every flight.');

    // No hit: the spec's message.
    await search.box.fill('zz-no-such-phrase-e2e');
    await expectText(search.status, 'No Items found', { timeout: 15_000 });
  });

  it('has no search box and no Select Page for the limited and the universal portals', { timeout: LONG }, async () => {
    const legacy = portals.find((p) => p.name === 'Legacy Crew Portal');
    const passenger = portals.find((p) => p.name === 'Passenger Portal');
    assert.ok(legacy && passenger, `the demo portals: ${JSON.stringify(portals.map((p) => p.name))}`);
    const { page } = await start();
    const search = headerSearch(page);
    const nav = page.getByRole('navigation', { name: 'Side navigation' });
    const selectPage = nav.getByRole('button', { name: /^Select Page/ });

    // The Crew Portal (FULL, PORTAL_ENGINE) has both.
    await goTo(page, `/#/domain/${DOMAIN_ID}/portal/${portalId}/branch/${branch}/en_GB/dashboard`);
    await expectVisible(page.getByRole('heading', { name: 'Crew Portal', level: 1 }), { timeout: 20_000 });
    await expectVisible(search.box);
    await expectVisible(selectPage);

    for (const [portal, title] of [[legacy, 'Legacy Crew Portal'], [passenger, 'Passenger Portal']]) {
      await goTo(page, `/#/domain/${DOMAIN_ID}/portal/${portal.id}/branch/${portal.activeBranch || 'master'}/en_GB/dashboard`);
      if (portal === legacy) {
        // A limited portal is opened after the 'Limited Portal' notice.
        const notice = page.getByRole('dialog', { name: 'Limited Portal' });
        await expectVisible(notice, { timeout: 20_000 });
        await notice.getByRole('button', { name: 'Proceed', exact: true }).click();
        await expectHidden(notice);
      }
      await expectVisible(page.getByRole('heading', { name: title, level: 1 }), { timeout: 20_000 });
      await expectHidden(search.box);
      await expectHidden(selectPage);
      assert.equal(await page.getByTestId('header-search-box').count(), 0, `no search box on ${title}`);
    }
  });
});
