// The page designer, source mode, the Page Manager and the header search from the tests
// (web/src/features/designer, pagesource, pagemanager, search): routes, accessible locators and
// small flows. Shared by pages.test.js, designer.test.js and bench/designer.bench.js, on the
// demo Crew Portal (domain 1, portal 1: PORTAL_ENGINE, TRANSLATION mode; pages home, flight-info
// > weather (airport required), crew-schedule, safety > contacts; master page index.html).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { expectHidden, expectVisible, eventually } from './expect.js';

/** …/branch/<branch>/<lang>/pages/<pageId>/<mode> ('/' in a branch travels as ':'). */
export const pageRoute = (domainId, portalId, branch, pageId, mode = 'designer-mode', lang = 'en_GB') =>
  `/#/domain/${domainId}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/${lang}/pages/${encodeURIComponent(pageId)}/${mode}`;

/** …/branch/<branch>/<lang>/page-manager. */
export const pageManagerRoute = (domainId, portalId, branch, lang = 'en_GB') =>
  `/#/domain/${domainId}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/${lang}/page-manager`;

/** Goes to a hash route without a reload (a reload would sign out). */
export async function goTo(page, route) {
  await page.evaluate((hash) => { window.location.hash = hash; }, route.replace(/^\/#/, '#'));
}

/** A file of the user's workspace of a portal: <dataDir>/workspaces/<userId>/<portalId>/<rel>. */
export const workspaceFile = (server, userId, portalId, rel) =>
  path.join(server.dataDir, 'workspaces', String(userId), String(portalId), ...rel.split('/'));

export const readWorkspaceFile = (server, userId, portalId, rel) =>
  fs.readFileSync(workspaceFile(server, userId, portalId, rel), 'utf8');

/** The preview frame as a FrameLocator. */
export const previewFrame = (page) => page.frameLocator('iframe[title="Portal preview"]');

/** Locators of the page designer. */
export const designer = (page) => {
  const properties = page.getByRole('complementary', { name: 'Properties' });
  return {
    heading: page.getByRole('heading', { name: 'Page Designer', level: 1 }),
    frameElement: page.locator('iframe[title="Portal preview"]'),
    frame: previewFrame(page),
    /** A widget's outline over the frame (drawn from the engine's registerShortCode). */
    outline: (id) => page.locator(`[data-widget-outline="${id}"]`),
    progressOverlay: page.getByTestId('designer-progress-overlay'),
    properties,
    /** The property form of a widget type ('Hero banner properties'). */
    form: (widgetName) => properties.getByRole('form', { name: `${widgetName} properties` }),
    widgetId: properties.getByTestId('designer-widget-id'),
    saveChanges: page.getByRole('button', { name: 'Save changes', exact: true }),
    sourceMode: page.getByRole('link', { name: 'Source mode', exact: true }),
    /** The toolbar's page selector: 'Page: <title>'. */
    pageButton: (title) => page.getByRole('button', { name: `Page: ${title}`, exact: true }),
    pageTree: page.getByRole('tree', { name: 'Page' }),
    savedToast: page.getByRole('status').filter({ hasText: 'Design surface changes saved' }).last(),
    /** The missing-parameters screen. */
    missing: (title) => page.getByRole('dialog', { name: `Failed to open page: ${title}` }),
    failure: page.getByRole('alertdialog'),
  };
};

/** Waits until the frame shows the page: the selector inside it and the overlay gone. */
export async function expectFramePage(page, selector, { timeout = 20_000 } = {}) {
  const d = designer(page);
  await expectVisible(d.frameElement, { timeout });
  await expectVisible(d.frame.locator(selector).first(), { timeout });
  await expectHidden(d.progressOverlay, { timeout });
}

/** Waits for the designer of a page: heading, frame, and (with selector) the page in it. */
export async function openDesigner(page, route, selector) {
  await goTo(page, route);
  await expectVisible(designer(page).heading, { timeout: 20_000 });
  if (selector) await expectFramePage(page, selector);
}

/** The header's search box (a combobox) and its results. */
export const headerSearch = (page) => ({
  box: page.getByRole('combobox', { name: 'Search in portal' }),
  results: page.getByRole('listbox', { name: 'Search results' }),
  status: page.getByTestId('header-search-dropdown').getByRole('status'),
});

/** Locators of the Page Manager. */
export const pageManager = (page) => {
  const tree = page.getByRole('tree', { name: 'Sitemap' });
  return {
    heading: page.getByRole('heading', { name: 'Page Manager', level: 1 }),
    tree,
    item: (id) => tree.locator(`[role="treeitem"][data-page-id="${id}"]`),
    toolbar: page.getByRole('toolbar', { name: 'Page actions' }),
    addDialog: page.getByRole('dialog', { name: 'Add page' }),
    details: page.getByRole('region', { name: 'Page details' }),
  };
};

/** Locators of source mode. */
export const sourceMode = (page) => {
  const toolbar = page.getByRole('toolbar', { name: 'Source mode' });
  return {
    heading: page.getByRole('heading', { name: 'Source mode', level: 1 }),
    toolbar,
    save: toolbar.getByRole('button', { name: 'Save', exact: true }),
    designerMode: toolbar.getByRole('button', { name: 'Designer mode', exact: true }),
    editor: (title) => page.getByRole('textbox', { name: `HTML source of ${title}` }),
    savedToast: page.getByRole('status').filter({ hasText: 'Page saved to your workspace.' }).last(),
  };
};

/** The Ace editor's text (the editor instance Ace keeps on its container element). */
export async function aceValue(page) {
  return page.evaluate(() => {
    const el = document.querySelector('.ace_editor');
    const editor = el?.env?.editor ?? window.ace?.edit(el);
    return editor.getValue();
  });
}

/** Replaces the Ace editor's text through Ace's own API (as typing would: onChange follows). */
export async function setAceValue(page, text) {
  await page.evaluate((text) => {
    const el = document.querySelector('.ace_editor');
    const editor = el?.env?.editor ?? window.ace?.edit(el);
    editor.session.setValue(text);
  }, text);
  await eventually(async () => assert.equal(await aceValue(page), text));
}

/** The workspace's uncommitted files (GET portal/<d>/<p>/local-changes): their paths. */
export async function localChangePaths(client, domainId, portalId) {
  const status = await client.ok('GET', `portal/${domainId}/${portalId}/local-changes`);
  return Object.keys(status?.changes ?? {}).sort();
}
