// The File Explorer from the tests (web/src/features/assets): its route and locators, and the
// demo Passenger Portal it is tested on. Shared by assets.test.js and editors.test.js.
import assert from 'node:assert/strict';
import { expectChecked } from './expect.js';

/** The Passenger Portal of the demo domain: {id, branch} (checked through the API). */
export async function passengerPortal(client, domainId = 1) {
  const portals = await client.ok('GET', `portal/${domainId}`);
  const passenger = (Array.isArray(portals) ? portals : []).find((p) => p.name === 'Passenger Portal');
  assert.ok(passenger, `Passenger Portal in GET portal/${domainId}: ${JSON.stringify(portals).slice(0, 500)}`);
  return { id: passenger.id, branch: passenger.activeBranch || 'master' };
}

/** …/file-explorer?path=<folder> of a portal on a branch ('/' travels as ':'), in en_GB. */
export const explorerRoute = (domainId, portalId, branch, folder) =>
  `/#/domain/${domainId}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/en_GB/file-explorer` +
  (folder && folder !== '/' ? `?path=${encodeURIComponent(folder)}` : '');

/** Locators of the File Explorer: the asset grid and its cards, the folder tree and its items. */
export const explorer = (page) => {
  const grid = page.getByRole('list', { name: 'Assets' });
  const tree = page.getByRole('tree', { name: 'Folders' });
  return {
    grid,
    card: (name) => grid.getByRole('listitem', { name, exact: true }),
    tree,
    // Tree items are named by their content (their open subfolders too): found by their own name.
    treeItem: (name) => tree.locator(`[role="treeitem"][data-name="${name}"]`),
    /** Toggles a file card's checkbox and waits for the grid to show it (it renders a selection 150 ms late). */
    async toggle(name) {
      const box = grid.getByRole('listitem', { name, exact: true }).getByRole('checkbox', { name: `Select ${name}` });
      const was = await box.isChecked();
      await box.click();
      await expectChecked(box, !was);
    },
  };
};
