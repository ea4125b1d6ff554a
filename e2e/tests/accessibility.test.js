// Every screen of the app has no serious or critical accessibility violation (axe-core, WCAG
// 2.x A/AA and best practices). A new screen is added to SCREENS when it lands.
import { describe, it } from 'node:test';
import { useE2E, signIn, expectVisible, expectLoginScreen, scanPage, shell } from '../harness/index.js';

const PORTAL = '/#/domain/1/portal/1/branch/master/en_GB';
// The Passenger Portal, whose assets/img folder holds images (the File Explorer's thumbnails).
const FILE_EXPLORER = '/#/domain/1/portal/2/branch/master/en_GB/file-explorer?path=%2Fassets%2Fimg';
const SCREENS = [
  ['welcome', '/#/'],
  ['domain dashboard', '/#/domain/1/dashboard'],
  ['domain e-mail', '/#/domain/1/email'],
  ['manage portals', '/#/domain/1/portal-management'],
  ['manage templates', '/#/domain/1/template-management'],
  ['portal dashboard', `${PORTAL}/dashboard`],
  ['branches', `${PORTAL}/branches`],
  ['portal settings', `${PORTAL}/settings`],
  ['file explorer', FILE_EXPLORER],
  ['translation manager', `${PORTAL}/translations`],
  ['page manager', `${PORTAL}/page-manager`],
  ['source mode', `${PORTAL}/pages/safety/source-mode`],
  ['page designer', `${PORTAL}/pages/home/designer-mode`],
  ['readiness', `${PORTAL}/readiness`],
  ['admin domains', '/#/admin/domains/1'],
  ['admin users', '/#/admin/users/1'],
  ['admin search', '/#/admin/search'],
  ['system preferences', '/#/admin/preferences'],
  ['mail outbox', '/#/admin/outbox'],
  ['audit history', '/#/admin/history'],
];

describe('accessibility', () => {
  const e2e = useE2E();

  it('the login screen has no serious or critical violations', async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await page.goto('/#/');
    await expectLoginScreen(page);
    const found = await scanPage(page);
    if (found.length) throw new Error(report([['login', found]]));
  });

  it('no screen of a signed-in administrator has serious or critical violations', { timeout: 180_000 }, async () => {
    const page = await e2e.newPage({ bypassCSP: true }); // axe is injected as a script
    await signIn(page);
    const failures = [];
    for (const [name, url] of SCREENS) {
      await page.goto(url);
      await expectVisible(page.getByRole('heading', { level: 1 }).first(), { timeout: 15_000 });
      await page.waitForLoadState('networkidle').catch(() => {});
      const found = await scanPage(page);
      if (found.length) failures.push([name, found]);
    }
    // The profile dialog, over the shell.
    await page.goto('/#/');
    await shell(page).profileButton.click();
    await page.getByRole('menuitem', { name: /Edit Profile/ }).click();
    await expectVisible(page.getByRole('dialog', { name: 'Edit Profile' }));
    let found = await scanPage(page);
    if (found.length) failures.push(['profile dialog', found]);

    // The File Explorer once its tree and grid loaded, in list view, and its upload dialog with
    // a file queued.
    await page.getByRole('dialog', { name: 'Edit Profile' }).getByRole('button', { name: 'Close', exact: true }).click();
    await page.goto(FILE_EXPLORER);
    await expectVisible(page.getByRole('heading', { name: 'File Explorer', level: 1 }), { timeout: 15_000 });
    await expectVisible(page.getByRole('list', { name: 'Assets' }).locator('img').first(), { timeout: 15_000 });
    await expectVisible(page.locator('[role="treeitem"][data-name="assets"][aria-expanded="true"]'), { timeout: 15_000 });
    found = await scanPage(page);
    if (found.length) failures.push(['file explorer grid view (loaded)', found]);
    await page.getByRole('button', { name: 'List view' }).click();
    await expectVisible(page.getByRole('table').first());
    found = await scanPage(page);
    if (found.length) failures.push(['file explorer list view', found]);
    await page.getByTestId('asset-drop-zone').getByRole('button', { name: 'Upload', exact: true }).click();
    const upload = page.getByRole('dialog', { name: 'Upload Files' });
    await expectVisible(upload);
    await upload.getByTestId('upload-input').setInputFiles([
      { name: 'a11y.json', mimeType: 'application/json', buffer: Buffer.from('{}\n') },
    ]);
    await expectVisible(upload.getByText('a11y.json', { exact: true }));
    found = await scanPage(page);
    if (found.length) failures.push(['upload dialog', found]);

    // The Page Manager once its tree loaded (markers like Draft included).
    await page.goto(`${PORTAL}/page-manager`);
    await expectVisible(page.getByRole('tree', { name: 'Sitemap' }).locator('[role="treeitem"][data-page-id="home"]'), { timeout: 15_000 });
    found = await scanPage(page);
    if (found.length) failures.push(['page manager (tree loaded)', found]);

    // The Translation Manager with a key open in a non-default language (rich text and the
    // read-only default beside it), and the Link Manager over it.
    await page.goto(`${PORTAL}/translations`);
    await expectVisible(page.getByRole('heading', { name: 'Translation Manager', level: 1 }), { timeout: 15_000 });
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: /fr_FR/ }).click();
    await page.getByRole('option', { name: 'txt_about_text' }).click();
    await expectVisible(page.getByRole('textbox', { name: 'Default language value' }));
    found = await scanPage(page);
    if (found.length) failures.push(['translation manager (key open)', found]);
    await page.getByRole('searchbox', { name: 'Search keys' }).fill('lnk_home');
    await page.getByRole('option', { name: 'lnk_home_button' }).click();
    await page.getByRole('button', { name: 'Edit link' }).click();
    await expectVisible(page.getByRole('dialog', { name: 'Link Manager' }));
    found = await scanPage(page);
    if (found.length) failures.push(['link manager', found]);
    if (failures.length) throw new Error(report(failures));
  });
});

function report(failures) {
  return failures
    .map(([name, found]) => `${name}:\n` + found.map((v) => `  ${v.impact} ${v.id}: ${v.help} — ${v.targets.join(' | ')}`).join('\n'))
    .join('\n');
}
