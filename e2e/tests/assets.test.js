// The File Explorer (asset manager, spec 2 §2 "Asset manager", §5 "Uploads and assets", §6)
// against the real server and the demo 'Passenger Portal' (domain 1, portal 2):
// - uploads by Add Files (two PNGs and a JSON) and by dropping a file onto the manager: per-file
//   progress ends as uploaded, 'Upload successful', the files in the grid with loaded
//   thumbnails, and the local changes in the header;
// - the demo SVGs of assets/img as thumbnails with their dimensions;
// - Add Folder, Rename Folder (Submit off while the name is unchanged), the new name in the tree;
// - a delete refused while a page of the workspace mentions the asset (the toast names the
//   page), and done once the reference is gone;
// - Delete Folder refused while the folder has files, done once it is empty; the upload
//   dialog's 'already exist' and 'special characters' warnings; no spaces in a folder name;
// - without asset_delete: Upload, but no Delete and no Delete Folder.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  useE2E, apiClient, apiSession, grantGroup, signIn, expectVisible, expectHidden, expectURL, expectDisabled,
  expectEnabled, expectText, eventually,
  explorer, explorerRoute, passengerPortal, shell,
} from '../harness/index.js';

const UPLOADER = { username: 'uma', password: 'uma-pass-1', firstName: 'Uma', lastName: 'Uploader', email: 'uma@example.test' };
const DOMAIN_ID = 1;
const LONG = 120_000;
// The folder list refreshes at most every 5 s after uploads; local changes every 10 s.
const REFRESH = 25_000;

// ---- a valid PNG, made here ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A width×height PNG of one RGB colour. */
function png(width, height, [r, g, b]) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const pngFile = (name, colour, w = 16, h = 12) => ({ name, mimeType: 'image/png', buffer: png(w, h, colour) });

describe('file explorer', { timeout: 400_000 }, () => {
  const e2e = useE2E({ server: { users: [UPLOADER] } });
  let portalId;
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    const passenger = await passengerPortal(admin, DOMAIN_ID);
    portalId = passenger.id;
    assert.equal(portalId, 2, 'the Passenger Portal is portal 2');
    branch = passenger.branch;
    await grantGroup(
      admin,
      DOMAIN_ID,
      'Uploaders',
      ['portal_read', 'branch_read', 'asset_read', 'asset_create', 'asset_write'],
      [UPLOADER.username],
    );
  });

  const toolbarButton = (page, name) => page.getByTestId('asset-drop-zone').getByRole('button', { name, exact: true });

  /** Opens the File Explorer at a folder and waits for its assets (or the empty folder). */
  async function openExplorer(page, folder = '/') {
    await page.goto(explorerRoute(DOMAIN_ID, portalId, branch, folder));
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 20_000 });
    await expectVisible(explorer(page).tree, { timeout: 20_000 });
    await eventually(async () => {
      assert.ok((await explorer(page).grid.count()) + (await page.getByText('This folder is empty.').count()) > 0, 'the folder loaded');
    }, { timeout: 20_000 });
  }

  /** The grid card's thumbnail is an <img> from the thumbnail API that loaded. */
  async function expectThumbnailLoaded(page, name) {
    const img = explorer(page).card(name).locator('img');
    await img.scrollIntoViewIfNeeded();
    await eventually(async () => {
      const state = await img.evaluate((el) => ({ src: el.src, complete: el.complete, width: el.naturalWidth }));
      assert.match(state.src, /\/api\/v1\/thumbnail\//, `thumbnail src of ${name}`);
      assert.ok(state.complete && state.width > 0, `thumbnail of ${name} loaded: ${JSON.stringify(state)}`);
    }, { timeout: 15_000 });
  }

  /** Uploads files into a folder of the caller's workspace through the API (multipart). */
  async function apiUpload(token, folder, files) {
    const form = new FormData();
    for (const f of files) form.append('files', new Blob([f.buffer], { type: f.mimeType }), f.name);
    const res = await e2e.server.fetch(`/api/v1/assets/${DOMAIN_ID}/${portalId}/multi/src/${folder.replace(/^\//, '')}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await res.text();
    assert.equal(res.status, 200, `upload: HTTP ${res.status} ${text}`);
    assert.deepEqual(JSON.parse(text).errors ?? [], [], `upload errors: ${text}`);
  }

  it('uploads by Add Files and by drop: progress, toast, thumbnails, local changes', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await openExplorer(page, '/assets');
    await expectVisible(shell(page).localChanges(0), { timeout: REFRESH });

    // Add Files: two PNGs and a JSON. The second PNG's request is held back, so the dialog
    // stays open while the others end as uploaded.
    await toolbarButton(page, 'Upload').click();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    await expectVisible(dialog);
    const files = [
      pngFile('e2e-one.png', [200, 30, 30]),
      pngFile('e2e-two.png', [30, 160, 40], 24, 10),
      { name: 'e2e-data.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}\n') },
    ];
    await dialog.getByTestId('upload-input').setInputFiles(files);
    const table = dialog.getByRole('table', { name: 'Files to upload' });
    for (const f of files) await expectVisible(table.getByText(f.name, { exact: true }));

    let releaseHeld;
    const held = new Promise((resolve) => { releaseHeld = resolve; });
    let heldSeen = false;
    await page.route('**/api/v1/assets/*/*/multi/src/**', async (route) => {
      const body = route.request().postDataBuffer()?.toString('latin1') ?? '';
      if (body.includes('filename="e2e-two.png"')) {
        heldSeen = true;
        await held;
      }
      await route.continue();
    });

    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const status = (name) => table.getByRole('row').filter({ hasText: name }).locator('[data-status]');
    await expectText(status('e2e-one.png'), 'Uploaded');
    await expectText(status('e2e-data.json'), 'Uploaded');
    await expectText(status('e2e-two.png'), 'Uploading');
    assert.ok(heldSeen, 'the held upload was sent');
    await expectVisible(dialog.getByRole('progressbar', { name: 'Upload of e2e-two.png' }));
    await expectVisible(dialog.getByRole('status').filter({ hasText: 'Uploading 1 files, please wait...' }));
    const progressOne = await dialog.getByRole('progressbar', { name: 'Upload of e2e-one.png' }).getAttribute('aria-valuenow');
    assert.equal(progressOne, '100', 'a finished file shows full progress');
    releaseHeld();
    // Everything stored: the dialog closes by itself and says so.
    await expectHidden(dialog);
    const success = page.getByRole('status').filter({ hasText: 'Upload successful' });
    await expectVisible(success);
    await page.unroute('**/api/v1/assets/*/*/multi/src/**');
    // The toast of several files stays 10 s (spec 2 §8); the next upload's toast comes after it.
    await expectHidden(success, { timeout: 15_000 });

    // Drop a file onto the manager: the upload dialog opens with it.
    const dropped = pngFile('e2e-dropped.png', [20, 40, 220], 8, 8);
    const dataTransfer = await page.evaluateHandle(({ name, type, b64 }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type }));
      return dt;
    }, { name: dropped.name, type: dropped.mimeType, b64: dropped.buffer.toString('base64') });
    await page.dispatchEvent('[data-testid="asset-drop-zone"]', 'dragover', { dataTransfer });
    await page.dispatchEvent('[data-testid="asset-drop-zone"]', 'drop', { dataTransfer });
    await expectVisible(dialog);
    await expectVisible(table.getByText('e2e-dropped.png', { exact: true }));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectHidden(dialog);
    await expectVisible(success);

    // The grid shows the four files (the folder refreshes, debounced), the images with thumbnails.
    for (const name of ['e2e-one.png', 'e2e-two.png', 'e2e-data.json', 'e2e-dropped.png']) {
      await expectVisible(explorer(page).card(name), { timeout: REFRESH });
    }
    for (const name of ['e2e-one.png', 'e2e-two.png', 'e2e-dropped.png']) await expectThumbnailLoaded(page, name);
    await expectText(explorer(page).card('e2e-two.png'), '24x10');
    await expectVisible(explorer(page).card('e2e-data.json').getByTestId('thumbnail-placeholder'));

    // Four new files of the workspace: the header counts them.
    await expectVisible(shell(page).localChanges(4), { timeout: REFRESH });
  });

  it("the demo images of assets/img show as thumbnails with their dimensions", { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await openExplorer(page, '/assets/img');
    const folder = await apiClient(e2e.server, login.id_token).ok('GET', `assets/${DOMAIN_ID}/${portalId}/src/assets/img`);
    const svgs = folder.children.filter((a) => a.name.endsWith('.svg')).map((a) => a.name);
    assert.ok(svgs.length > 0, `assets/img has SVGs: ${JSON.stringify(folder.children.map((a) => a.name))}`);
    for (const name of svgs) {
      await expectVisible(explorer(page).card(name));
      await expectThumbnailLoaded(page, name);
    }
    // The demo SVGs have width and height: 320x120 for paris.svg.
    await expectText(explorer(page).card('paris.svg'), '320x120');
    await expectText(explorer(page).card('logo.svg'), '64x64');
    await expectVisible(explorer(page).tree.locator('[role="treeitem"][aria-selected="true"][data-name="img"]'));
  });

  it('adds a folder and renames it; the tree shows the new name', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await openExplorer(page, '/assets');

    await toolbarButton(page, 'Add Folder').click();
    const add = page.getByRole('dialog', { name: 'Add Folder' });
    await expectVisible(add);
    await add.getByLabel('Folder name').fill('e2e-folder');
    await add.getByRole('button', { name: 'Submit' }).click();
    await expectHidden(add);
    await expectVisible(explorer(page).card('e2e-folder'));
    await expectVisible(explorer(page).treeItem('e2e-folder'));

    await explorer(page).card('e2e-folder').getByRole('button', { name: 'e2e-folder', exact: true }).click();
    await expectURL(page, /file-explorer\?path=%2Fassets%2Fe2e-folder$/);
    await expectVisible(page.getByText('This folder is empty.'));
    await expectVisible(explorer(page).tree.locator('[role="treeitem"][aria-selected="true"][data-name="e2e-folder"]'));

    await toolbarButton(page, 'Rename Folder').click();
    const rename = page.getByRole('dialog', { name: 'Rename Folder' });
    await expectVisible(rename);
    const name = rename.getByLabel('New folder name');
    assert.equal(await name.inputValue(), 'e2e-folder');
    const submit = rename.getByRole('button', { name: 'Submit' });
    await expectDisabled(submit);
    await name.fill('e2e-renamed');
    await expectEnabled(submit);
    await name.fill('e2e-folder');
    await expectDisabled(submit);
    await name.fill('e2e-renamed');
    await submit.click();
    await expectHidden(rename);

    await expectURL(page, /file-explorer\?path=%2Fassets%2Fe2e-renamed$/);
    await expectVisible(explorer(page).treeItem('e2e-renamed'));
    await expectHidden(explorer(page).treeItem('e2e-folder'));
    await expectVisible(explorer(page).tree.locator('[role="treeitem"][aria-selected="true"][data-name="e2e-renamed"]'));
    // The parent lists the new name only.
    await explorer(page).treeItem('assets').getByRole('button', { name: 'assets', exact: true }).click();
    await expectURL(page, /file-explorer\?path=%2Fassets$/);
    await expectVisible(explorer(page).card('e2e-renamed'));
    assert.equal(await explorer(page).card('e2e-folder').count(), 0);
  });

  it('renames the one selected file', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await openExplorer(page, '/'); // opens the portal: the workspace exists
    await apiUpload(login.id_token, '/assets', [pngFile('e2e-before.png', [40, 80, 120])]);
    await openExplorer(page, '/assets');
    const rename = toolbarButton(page, 'Rename');
    await expectDisabled(rename);
    await explorer(page).toggle('e2e-before.png');
    await expectEnabled(rename);
    await rename.click();
    const dialog = page.getByRole('dialog', { name: 'Rename File' });
    const name = dialog.getByLabel('New file name');
    assert.equal(await name.inputValue(), 'e2e-before.png');
    await name.fill('e2e-after.exe');
    await expectVisible(dialog.getByText('This file type is not allowed'));
    await name.fill('e2e-after.png');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expectHidden(dialog);
    await expectVisible(explorer(page).card('e2e-after.png'));
    assert.equal(await explorer(page).card('e2e-before.png').count(), 0);
  });

  it('a delete is refused while a page uses the asset, and done once it does not', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    const adminId = login.profile.user.id;
    await openExplorer(page, '/'); // opens the portal: the workspace exists
    await apiUpload(login.id_token, '/assets', [pngFile('e2e-used.png', [90, 90, 90])]);

    const workspace = path.join(e2e.server.dataDir, 'workspaces', String(adminId), String(portalId));
    assert.ok(fs.existsSync(path.join(workspace, 'assets', 'e2e-used.png')), 'the upload is in the workspace');
    const pageFile = path.join(workspace, 'content', 'e2e-uses-image.html');
    fs.mkdirSync(path.dirname(pageFile), { recursive: true });
    fs.writeFileSync(pageFile, '<p><img src="assets/e2e-used.png" alt="Used"></p>\n');

    // A reload would sign out (no Remember Me): open the folder, not loaded so far, in the tree.
    await explorer(page).treeItem('assets').getByRole('button', { name: 'assets', exact: true }).click();
    await expectURL(page, /file-explorer\?path=%2Fassets$/);
    await expectVisible(explorer(page).card('e2e-used.png'), { timeout: 20_000 });
    await explorer(page).toggle('e2e-used.png');
    await toolbarButton(page, 'Delete').click();
    let confirm = page.getByRole('dialog', { name: 'Delete Assets' });
    await expectText(confirm, 'Delete 1 asset?');
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Error deleting asset(s)' });
    await expectVisible(refused);
    await expectText(refused, 'The asset is used by other files.');
    await expectText(refused, 'content/e2e-uses-image.html');
    assert.ok(fs.existsSync(path.join(workspace, 'assets', 'e2e-used.png')), 'nothing deleted');
    await expectVisible(explorer(page).card('e2e-used.png'));
    await refused.getByRole('button', { name: 'Close' }).click();
    await expectHidden(refused);

    // The page no longer uses it: the delete goes through.
    fs.rmSync(pageFile);
    await explorer(page).toggle('e2e-used.png');
    await toolbarButton(page, 'Delete').click();
    confirm = page.getByRole('dialog', { name: 'Delete Assets' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: '1 asset deleted.' }));
    await expectHidden(explorer(page).card('e2e-used.png'));
    assert.equal(fs.existsSync(path.join(workspace, 'assets', 'e2e-used.png')), false);
    assert.equal(await page.getByRole('alert').filter({ hasText: 'Error deleting asset(s)' }).count(), 0);
  });

  it('Delete Folder is refused while the folder has files; upload warnings; folder name rule', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await openExplorer(page, '/'); // opens the portal: the workspace exists
    const api = apiClient(e2e.server, login.id_token);
    await api.ok('POST', `assets/${DOMAIN_ID}/${portalId}/folder/create`, ['/assets/e2e-doomed']);
    await apiUpload(login.id_token, '/assets/e2e-doomed', [{ name: 'keep.txt', mimeType: 'text/plain', buffer: Buffer.from('keep\n') }]);
    // A hash change (no reload, which would sign out): the folder was never loaded.
    await page.goto(explorerRoute(DOMAIN_ID, portalId, branch, '/assets/e2e-doomed'));
    await expectVisible(explorer(page).card('keep.txt'), { timeout: 20_000 });

    // The upload dialog warns about a file that exists and a name with special characters.
    await toolbarButton(page, 'Upload').click();
    const upload = page.getByRole('dialog', { name: 'Upload Files' });
    await upload.getByTestId('upload-input').setInputFiles([
      { name: 'keep.txt', mimeType: 'text/plain', buffer: Buffer.from('again\n') },
      { name: 'bad#name.txt', mimeType: 'text/plain', buffer: Buffer.from('bad\n') },
    ]);
    await expectVisible(upload.getByText('Warning! Some of the selected files already exist in the current directory and may be overridden.'));
    await expectVisible(upload.getByText('Warning! Some of the selected files can not be uploaded because it contains special characters.'));
    await expectText(upload.getByRole('row').filter({ hasText: 'keep.txt' }), 'Yes');
    await upload.getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(upload);

    // Not empty: the folder stays.
    await toolbarButton(page, 'Delete Folder').click();
    let confirm = page.getByRole('dialog', { name: 'Delete Folder' });
    await expectText(confirm, "Delete the folder 'e2e-doomed'?");
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    const refused = page.getByRole('alert').filter({ hasText: "Error deleting asset folder 'e2e-doomed'" });
    await expectVisible(refused);
    await expectText(refused, 'Folder still has children.');
    await expectURL(page, /file-explorer\?path=%2Fassets%2Fe2e-doomed$/);
    await expectVisible(explorer(page).card('keep.txt'));

    // Emptied, it goes; the explorer shows its parent.
    await explorer(page).toggle('keep.txt');
    await toolbarButton(page, 'Delete').click();
    await page.getByRole('dialog', { name: 'Delete Assets' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expectVisible(page.getByText('This folder is empty.'));
    await toolbarButton(page, 'Delete Folder').click();
    confirm = page.getByRole('dialog', { name: 'Delete Folder' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectURL(page, /file-explorer\?path=%2Fassets$/);
    await expectHidden(explorer(page).treeItem('e2e-doomed'));
    assert.equal(await explorer(page).card('e2e-doomed').count(), 0);

    // A folder name has no spaces.
    await toolbarButton(page, 'Add Folder').click();
    const add = page.getByRole('dialog', { name: 'Add Folder' });
    await add.getByLabel('Folder name').fill('has space');
    await add.getByLabel('Folder name').blur();
    await expectVisible(add.getByText('A folder name cannot contain spaces'));
    await expectDisabled(add.getByRole('button', { name: 'Submit' }));
    await add.getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(add);
    assert.equal(await explorer(page).card('has space').count(), 0);
  });

  it('without asset_delete: Upload, but no Delete and no Delete Folder', { timeout: LONG }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page, UPLOADER);
    await openExplorer(page, '/');
    // A file to select in this user's workspace; then the folder, not loaded so far.
    await apiUpload(login.id_token, '/assets', [pngFile('uma.png', [10, 200, 10])]);
    await explorer(page).treeItem('assets').getByRole('button', { name: 'assets', exact: true }).click();
    await expectURL(page, /file-explorer\?path=%2Fassets$/);
    await expectVisible(explorer(page).card('uma.png'), { timeout: 20_000 });

    await expectVisible(toolbarButton(page, 'Upload'));
    await expectVisible(toolbarButton(page, 'Add Folder'));
    await expectVisible(toolbarButton(page, 'Rename Folder'));
    await expectVisible(toolbarButton(page, 'Download'));
    await explorer(page).toggle('uma.png');
    await expectEnabled(toolbarButton(page, 'Download'));
    assert.equal(await toolbarButton(page, 'Delete').count(), 0, 'no Delete');
    assert.equal(await toolbarButton(page, 'Delete Folder').count(), 0, 'no Delete Folder');
    assert.equal(await page.getByRole('button', { name: /^Delete/ }).count(), 0, 'no delete button anywhere');

    // The upload works for this user.
    await toolbarButton(page, 'Upload').click();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    await dialog.getByTestId('upload-input').setInputFiles([pngFile('uma-two.png', [10, 10, 200])]);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectHidden(dialog);
    await expectVisible(page.getByRole('status').filter({ hasText: 'Upload successful' }));
    await expectVisible(explorer(page).card('uma-two.png'), { timeout: REFRESH });
  });
});
