// File types (issue 30 item 2) against the real server and the demo 'Passenger Portal' (domain
// 1, portal 2): an .mdx page uploaded through the File Explorer's Upload dialog is served as
// Markdown with its charset, and opens in the source editor with Ace's Markdown mode (the
// server's editorMode, from its one file type table).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, apiSession, signIn, expectVisible, expectHidden, expectURL, expectEnabled, expectText, eventually,
  explorer, explorerRoute, passengerPortal,
} from '../harness/index.js';

const DOMAIN_ID = 1;
const PORTAL_ID = 2;
// The folder list refreshes at most every 5 s after uploads.
const REFRESH = 25_000;
const NAME = 'e2e-page.mdx';
const TEXT = '# Über uns\n\nimport Hero from "../components/Hero";\n\n<Hero title="Café" />\n';

describe('file types', { timeout: 200_000 }, () => {
  const e2e = useE2E();
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    const passenger = await passengerPortal(admin, DOMAIN_ID);
    assert.equal(passenger.id, PORTAL_ID, 'the Passenger Portal is portal 2');
    branch = passenger.branch;
  });

  it('an uploaded .mdx file is Markdown: its type and charset, the source editor in Ace\'s Markdown mode', { timeout: 150_000 }, async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await page.goto(explorerRoute(DOMAIN_ID, PORTAL_ID, branch, '/assets'));
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 20_000 });
    await expectVisible(explorer(page).tree, { timeout: 20_000 });

    // Upload it through the File Explorer's Upload dialog.
    await page.getByTestId('asset-drop-zone').getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Files' });
    await expectVisible(dialog);
    await dialog.getByTestId('upload-input').setInputFiles([{ name: NAME, mimeType: 'text/markdown', buffer: Buffer.from(TEXT) }]);
    await expectVisible(dialog.getByRole('table', { name: 'Files to upload' }).getByText(NAME, { exact: true }));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectHidden(dialog, { timeout: 20_000 });
    await expectVisible(explorer(page).card(NAME), { timeout: REFRESH });

    // The server answers its bytes as Markdown in UTF-8, and says its editor mode.
    const token = login.id_token;
    const raw = await e2e.server.fetch(`/api/v1/assets/${DOMAIN_ID}/${PORTAL_ID}/src/assets/${NAME}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(raw.status, 200);
    assert.equal(raw.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(await raw.text(), TEXT);
    const meta = await (await e2e.server.fetch(`/api/v1/assets/${DOMAIN_ID}/${PORTAL_ID}/src/assets/${NAME}?meta=1`, {
      headers: { Authorization: `Bearer ${token}` },
    })).json();
    assert.deepEqual([meta.type, meta.editorMode, meta.canEdit.editable], ['text/markdown', 'markdown', true]);

    // Edit opens the source editor, with Ace's Markdown mode.
    const edit = page.getByRole('button', { name: `Edit ${NAME}`, exact: true });
    await expectEnabled(edit);
    await edit.click();
    await expectURL(page, /[?&]mode=source(&|$)/);
    await expectVisible(page.getByRole('heading', { name: `Editing: /assets/${NAME}` }), { timeout: 20_000 });
    const content = page.locator('.ace_content');
    await expectVisible(content, { timeout: 20_000 });
    await expectText(content, 'Über uns', { timeout: 20_000 });
    await eventually(async () => {
      const mode = await page.evaluate(() => document.querySelector('.ace_editor')?.env?.editor?.session?.$modeId);
      assert.equal(mode, 'ace/mode/markdown');
    }, { timeout: 20_000 });
  });
});
