// The route guard and domain permissions (spec 1 §2.2, §2.3, §6) against the real server.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, apiSession, grantGroup, signIn, shell, loginScreen, expectLoginScreen, expectVisible, expectHidden, expectURL,
  eventually,
} from '../harness/index.js';

const MAILER = { username: 'mia', password: 'mia-pass-1', firstName: 'Mia', lastName: 'Mailer', email: 'mia@example.test' };
const READER = { username: 'rex', password: 'rex-pass-1', firstName: 'Rex', lastName: 'Reader', email: 'rex@example.test' };
const DOMAIN = 'Ops Domain';

describe('permissions', { timeout: 60_000 }, () => {
  const e2e = useE2E({ server: { users: [MAILER, READER] } });
  let domainId;

  before(async () => {
    const admin = await apiSession(e2e.server);
    domainId = (await admin.ok('POST', 'domain/', { name: DOMAIN })).id;
    await grantGroup(admin, domainId, 'Mailers', ['domain_user_create'], [MAILER.username]);
    await grantGroup(admin, domainId, 'Readers', ['page_read'], [READER.username]);
  });

  async function openDomain(page) {
    const nav = page.getByRole('navigation', { name: 'Side navigation' });
    await nav.getByRole('button', { name: /Select Domain/ }).click();
    await page.getByRole('list', { name: 'Domains' }).getByRole('button', { name: DOMAIN }).click();
    await expectURL(page, new RegExp(`#/domain/${domainId}/dashboard$`));
    await expectVisible(page.getByRole('heading', { name: DOMAIN }));
    await expectVisible(nav.getByText(DOMAIN, { exact: true }));
    return nav;
  }

  async function manageDomainEntries(page, nav) {
    await nav.getByRole('button', { name: /Manage Domain/ }).click();
    const menu = page.getByRole('menu');
    await expectVisible(menu.getByRole('menuitem', { name: 'Dashboard' }));
    const entries = await menu.getByRole('menuitem').allInnerTexts();
    await page.keyboard.press('Escape');
    await expectHidden(menu);
    return entries.map((t) => t.trim());
  }

  it('a user with domain_user_create lands on the domain dashboard and sees Email', async () => {
    const page = await e2e.newPage();
    await signIn(page, MAILER);
    const nav = await openDomain(page);
    await expectVisible(page.getByRole('list', { name: 'Your roles' }).getByText('Mailers'));
    await shell(page).profileButton.click();
    const profileMenu = page.getByRole('menu');
    await expectVisible(profileMenu.getByText('Domain Roles', { exact: true }));
    await expectVisible(profileMenu.getByRole('listitem').filter({ hasText: `${DOMAIN}: Mailers` }));
    await page.keyboard.press('Escape');
    await expectHidden(profileMenu);
    assert.ok((await manageDomainEntries(page, nav)).includes('Email'), "the 'Email' entry is shown");

    await nav.getByRole('button', { name: /Manage Domain/ }).click();
    await page.getByRole('menuitem', { name: 'Email' }).click();
    await expectURL(page, new RegExp(`#/domain/${domainId}/email$`));
    await expectVisible(page.getByRole('heading', { name: 'Email' }));
    await page.getByLabel(/^Subject/).fill('Maintenance tonight');
    await page.getByLabel(/^Message/).fill('The portal is down from 22:00.');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/user/send-email')),
      page.getByRole('button', { name: 'Send' }).click(),
    ]);
    assert.equal(response.status(), 200);
    const { queued } = await response.json();
    await expectVisible(page.getByText(`${queued} e-mail${queued === 1 ? '' : 's'} queued`));
  });

  it('a user without domain_user_create has no Email entry and is sent to / from its URL', async () => {
    const page = await e2e.newPage();
    await signIn(page, READER);
    const nav = await openDomain(page);
    assert.ok(!(await manageDomainEntries(page, nav)).includes('Email'), "no 'Email' entry");

    await page.goto(`/#/domain/${domainId}/email`);
    await expectURL(page, /#\/$/);
    await expectVisible(shell(page).welcome);
    await eventually(async () =>
      assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 0, 'the Email screen never shows'));
  });

  /** Signs in on the login screen already shown, without expecting the Welcome dashboard. */
  async function signInHere(page, { username, password }) {
    const login = loginScreen(page);
    await expectLoginScreen(page);
    await login.username.fill(username);
    await login.password.fill(password);
    await login.terms.check();
    await login.signIn.click();
    await expectVisible(shell(page).profileButton);
  }

  it('a deep link opened while signed out is shown after sign-in', async () => {
    const page = await e2e.newPage();
    await page.goto(`/#/domain/${domainId}/email`);
    await signInHere(page, MAILER);
    await expectURL(page, new RegExp(`#/domain/${domainId}/email$`));
    await expectVisible(page.getByRole('heading', { name: 'Email' }));
  });

  it('a reload on a domain route keeps the domain (the URL names it)', async () => {
    const page = await e2e.newPage();
    await signIn(page, { ...MAILER, remember: true });
    const nav = await openDomain(page);
    await page.reload();
    await expectURL(page, new RegExp(`#/domain/${domainId}/dashboard$`));
    await expectVisible(page.getByRole('heading', { name: DOMAIN }));
    await expectVisible(nav.getByText(DOMAIN, { exact: true }));
  });

  it('the last visited route is restored at the next sign-in', async () => {
    const page = await e2e.newPage();
    await signIn(page, MAILER);
    await openDomain(page);
    await shell(page).profileButton.click();
    // Logging out resets the URL to the root and reloads the page.
    await Promise.all([page.waitForEvent('load'), shell(page).logOut.click()]);
    await expectURL(page, /#\/$/);
    await signInHere(page, MAILER);
    await expectURL(page, new RegExp(`#/domain/${domainId}/dashboard$`));
    await expectVisible(page.getByRole('heading', { name: DOMAIN }));
  });

  it('an unknown domain in the URL shows the domain error with Continue to the dashboard', async () => {
    const page = await e2e.newPage();
    await signIn(page, READER);
    await page.goto('/#/domain/999999/dashboard');
    await expectVisible(page.getByText('Could not open domain: The domain does not exist'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectURL(page, /#\/$/);
    await expectVisible(shell(page).welcome);
  });
});
