// The Whitelist screen (issue 14; spec 3 §2 "Whitelist screen", §5, §7 "Whitelist"): on the demo
// Crew Portal, a page written through the product's API loads a script from an external host;
// Check portal lists it as not allowed, 'Add to whitelist' adds its origin, Save writes
// whitelist.json into the workspace, and the check then shows it allowed.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useE2E, apiSession, signIn, expectVisible, expectEnabled } from '../harness/index.js';
import { crewPortal } from '../harness/translations.js';

const DOMAIN_ID = 1;
const ORIGIN = 'https://cdn.e2e-whitelist.example.com';
const SCRIPT = `${ORIGIN}/lib/widget.js`;

describe('whitelist', { timeout: 120_000 }, () => {
  const e2e = useE2E();
  let portalId;
  let branch;

  before(async () => {
    const admin = await apiSession(e2e.server);
    ({ id: portalId, branch } = await crewPortal(admin, DOMAIN_ID));
  });

  it('checks the portal, whitelists a URL it uses and sees it allowed', async () => {
    const page = await e2e.newPage();
    const login = await signIn(page);
    await page.goto(`/#/domain/${DOMAIN_ID}/portal/${portalId}/branch/${branch.replace(/\//g, ':')}/en_GB/whitelist`);
    await expectVisible(page.getByRole('heading', { name: 'Whitelist', level: 1 }), { timeout: 20_000 });
    const entries = page.getByRole('table', { name: 'Whitelist' });
    await expectVisible(entries.getByText('The whitelist is empty: no external URL is allowed.'));

    // A page of the caller's workspace that loads an external script, written through the
    // asset API with the browser's own token (an API sign-in would end the browser's session).
    const res = await e2e.server.fetch(`/api/v1/assets/${DOMAIN_ID}/${portalId}/src/pages/e2e-whitelist.html`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${login.id_token}`, 'Content-Type': 'application/json', 'If-Match': '"0"' },
      body: JSON.stringify({ data: `<div>\n<script src="${SCRIPT}"></script>\n</div>\n` }),
    });
    assert.ok(res.status < 300, `write page: HTTP ${res.status} ${await res.text()}`);

    const check = page.getByRole('button', { name: 'Check portal' });
    await check.click();
    const urls = page.getByRole('table', { name: 'External URLs' });
    const row = urls.getByRole('row').filter({ hasText: SCRIPT });
    await expectVisible(row, { timeout: 20_000 });
    await expectVisible(row.getByText('Not allowed', { exact: true }));
    await expectVisible(row.getByText('pages/e2e-whitelist.html:2'));

    await row.getByRole('button', { name: `Add to whitelist: ${ORIGIN}` }).click();
    await expectVisible(entries.getByText(ORIGIN, { exact: true }));
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expectEnabled(save);
    await save.click();
    await expectVisible(page.getByText('Whitelist saved to your workspace.'));

    // The check again: allowed now.
    await expectEnabled(check, { timeout: 20_000 });
    await check.click();
    await expectVisible(row.getByText('Allowed', { exact: true }), { timeout: 20_000 });

    // Saved into the caller's workspace.
    const saved = await e2e.server.fetch(`/api/v1/whitelist/${DOMAIN_ID}/${portalId}/get-whitelist`, {
      headers: { Authorization: `Bearer ${login.id_token}` },
    });
    const body = await saved.json();
    assert.deepEqual(body.whitelist, [{ url: ORIGIN }]);
  });
});
