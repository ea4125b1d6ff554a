// Loadables from the tests (web/src/features/loadables; spec 3 §2 and §4 "Loadables"): the
// screens' routes, a row of Manage Loadables, the Create Loadable wizard, and loadables made
// and followed through the API. Shared by loadables.test.js and defects.test.js.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { expectURL, expectVisible, eventually } from './expect.js';

/** …/branch/<branch>/en_GB/<screen> ('loadables-manage', 'loadables-create', 'dashboard'…). */
export const loadablesRoute = (domainId, portalId, branch, screen) =>
  `/#/domain/${domainId}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/en_GB/${screen}`;

/** The row of Manage Loadables of the loadable named `name`. */
export const loadableRow = (page, name) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/**
 * Walks the Create Loadable wizard (the page shows it): validates the active branch, keeps the
 * suggested name, asks a part number, accepts the copyright and creates and generates; waits
 * for Manage Loadables. afterValidate(page) runs on the Source step once it validated. Returns
 * the loadable's name.
 */
export async function createLoadableByWizard(page, { afterValidate } = {}) {
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Create Loadable' }), { timeout: 20_000 });

  // Source: validate the active branch.
  await page.getByRole('button', { name: 'Validate' }).click();
  await expectVisible(page.getByRole('status').filter({ hasText: /./ }).first(), { timeout: 20_000 });
  await afterValidate?.(page);
  await page.getByRole('button', { name: 'Next' }).click();

  // Details: the suggested name, a suggested part number, version 1.0.
  const name = page.getByRole('textbox', { name: /^Name/ });
  await eventually(async () => assert.match(await name.inputValue(), /^[a-z-]+-portal-\d{8}/));
  const loadableName = await name.inputValue();
  await page.getByRole('button', { name: 'Suggest' }).click();
  await eventually(async () => assert.match(await page.getByRole('textbox', { name: /^Part number/ }).inputValue(), /^PW-/));
  await page.getByRole('button', { name: 'Next' }).click();

  // Copyright: the statement and the address the server saw; accept.
  await expectVisible(page.getByText(/^Your address: /), { timeout: 20_000 });
  await page.getByRole('checkbox', { name: 'I accept the copyright statement' }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  // Review, then create and generate.
  await expectVisible(page.getByRole('table', { name: 'Review' }));
  await page.getByRole('button', { name: 'Create and generate' }).click();
  await expectURL(page, /\/loadables-manage$/, { timeout: 20_000 });
  return loadableName;
}

/**
 * Creates a loadable of the branch through the API (the client's workspace of the portal opened
 * first: the server asks for one) and starts its generation; returns it.
 */
export async function generateLoadable(client, domainId, portalId, { name, gitRef = 'master', partNumber = 'PW-E2E-TEST' }) {
  await client.ok('GET', `portal/${domainId}/${portalId}/open`);
  const created = await client.ok('POST', `loadable/${domainId}/${portalId}`, {
    name,
    partNumber,
    versionPrefix: '1.0',
    type: 'PORTAL',
    gitRef,
    copyrightData: { metaData: { accept: true, ipAddress: '127.0.0.1' } },
  });
  await client.ok('POST', `loadable/${domainId}/${portalId}/generate/${created.id}`);
  return created;
}

/** The loadable `id` as GET loadable/<d>/<p> lists it, once check(loadable) passes (polls). */
export async function expectLoadable(client, domainId, portalId, id, check, { timeout = 180_000 } = {}) {
  return eventually(async () => {
    const l = (await client.ok('GET', `loadable/${domainId}/${portalId}`)).find((x) => x.id === id);
    assert.ok(l, `loadable ${id} listed`);
    check(l);
    return l;
  }, { timeout });
}

/**
 * Makes the portal's build (build.js, `node build.js` in the sandbox) wait until the clock reaches
 * `until` (ms since the epoch) and commits that from the workspace of the client's user (userId),
 * so a generation of the branch lasts until then.
 */
export async function commitSlowBuild(server, client, { userId, domainId, portalId, until }) {
  await client.ok('GET', `portal/${domainId}/${portalId}/open`);
  const file = path.join(server.dataDir, 'workspaces', String(userId), String(portalId), 'build.js');
  const src = fs.readFileSync(file, 'utf8');
  const wait = `{ const ms = ${until} - Date.now(); if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); }\n`;
  assert.ok(src.includes("'use strict';\n"), 'build.js starts with use strict');
  fs.writeFileSync(file, src.replace("'use strict';\n", `'use strict';\n${wait}`));
  await client.ok('POST', `portal/${domainId}/${portalId}/commits`, { message: 'A slow build' });
}
