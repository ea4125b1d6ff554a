// Every screen of the app has no serious or critical accessibility violation (axe-core, WCAG
// 2.x A/AA and best practices). A new screen is added to SCREENS when it lands.
import { describe, it } from 'node:test';
import { useE2E, signIn, expectVisible, expectLoginScreen, scanPage, shell } from '../harness/index.js';

const PORTAL = '/#/domain/1/portal/1/branch/master/en_GB';
const SCREENS = [
  ['welcome', '/#/'],
  ['domain dashboard', '/#/domain/1/dashboard'],
  ['domain e-mail', '/#/domain/1/email'],
  ['manage portals', '/#/domain/1/portal-management'],
  ['manage templates', '/#/domain/1/template-management'],
  ['portal dashboard', `${PORTAL}/dashboard`],
  ['branches', `${PORTAL}/branches`],
  ['portal settings', `${PORTAL}/settings`],
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
    const found = await scanPage(page);
    if (found.length) failures.push(['profile dialog', found]);
    if (failures.length) throw new Error(report(failures));
  });
});

function report(failures) {
  return failures
    .map(([name, found]) => `${name}:\n` + found.map((v) => `  ${v.impact} ${v.id}: ${v.help} — ${v.targets.join(' | ')}`).join('\n'))
    .join('\n');
}
