// The signed-in shell: routing, the version dialog and the connectivity toast.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, apiClient, signIn, shell, productVersion, goOffline, goOnline,
  expectVisible, expectHidden, expectText, expectURL,
} from '../harness/index.js';

/** The combined version: front-end version + '.' + back-end 4th part zero-padded to 3 digits. */
function combinedVersion(frontend, backend) {
  const build = backend.split('.')[3];
  return build === undefined ? frontend : `${frontend}.${build.padStart(3, '0')}`;
}

/** Numeric parts of a version, so 3.4.10.042 and 3.4.10.42 compare equal. */
const parts = (v) => v.split('.').map(Number);

describe('shell', { timeout: 120_000 }, () => {
  const e2e = useE2E();

  it('sends an unknown hash route to the dashboard', async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await page.goto('/#/no/such/route');
    await expectURL(page, /#\/$/);
    await expectVisible(shell(page).welcome);
  });

  it("shows 'page not found' at #/404 and 'Go home' leads to the dashboard", async () => {
    const page = await e2e.newPage();
    await signIn(page);
    await page.goto('/#/404');
    await expectVisible(page.getByText('page not found'));
    await page.getByRole('link', { name: 'Go home' }).click();
    await expectURL(page, /#\/$/);
    await expectVisible(shell(page).welcome);
    await expectHidden(page.getByText('page not found'));
  });

  it('shows the front-end, back-end and combined versions', async () => {
    const frontend = productVersion();
    const res = await apiClient(e2e.server).call('GET', 'config/backend-version');
    assert.equal(res.status, 200);
    const backend = res.text.trim().replace(/^"|"$/g, '');
    const versionJson = await (await e2e.server.fetch('/version.json')).json();
    assert.equal(versionJson.version, frontend, '/version.json carries the VERSION file');

    const page = await e2e.newPage();
    await signIn(page);
    const button = shell(page).versionButton;
    await expectText(button, new RegExp(`^v${frontend.replace(/\./g, '\\.')}\\b`));
    await button.click();
    const dialog = shell(page).versionDialog;
    await expectVisible(dialog);
    const row = (label) => dialog.getByRole('row', { name: new RegExp(`^${label}`) });

    const frontText = await expectText(row('Front-end version'), /\d+\.\d+\.\d+/);
    assert.equal(frontText.replace('Front-end version', '').trim(), frontend);
    const backText = await expectText(row('Back-end version'), /\d+\.\d+\.\d+/);
    assert.deepEqual(parts(backText.replace('Back-end version', '').trim()), parts(backend),
      `back-end version ${backText} is the API's ${backend}`);
    const combinedText = await expectText(row('Combined version'), /\d+\.\d+\.\d+/);
    assert.equal(combinedText.replace('Combined version', '').trim(), combinedVersion(frontend, backend));
  });

  it("shows 'Connection unstable' while offline and removes it when back online", async () => {
    const page = await e2e.newPage();
    await signIn(page);
    const toast = page.getByText('Connection unstable');
    assert.equal(await toast.count(), 0);
    await goOffline(page);
    await expectVisible(toast);
    await goOnline(page);
    await expectHidden(toast);
  });
});
