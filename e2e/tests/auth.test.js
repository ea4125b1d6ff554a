// Signing in and out through the login screen, against the real server and a real Chromium.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, apiClient, signIn, loginScreen, shell, overlays, expectLoginScreen, expectShell,
  expectVisible, expectHidden, expectEnabled, expectDisabled, expectURL,
  ADMIN_USERNAME, ADMIN_PASSWORD,
} from '../harness/index.js';

describe('auth', { timeout: 120_000 }, () => {
  const e2e = useE2E();

  it('signs in the admin: shell, Welcome heading, profile menu with the user', async () => {
    const page = await e2e.newPage();
    const login = await signIn(page, { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    const user = login.profile.user;

    await expectVisible(shell(page).welcome);
    await expectURL(page, /#\/$/);
    await shell(page).profileButton.click();
    const menu = page.getByRole('menu');
    await expectVisible(menu);
    await expectVisible(menu.getByText('Portal Administrator', { exact: true }));
    await expectVisible(menu.getByText(ADMIN_USERNAME, { exact: true }));
    if (user.email) await expectVisible(menu.getByText(user.email, { exact: true }));
    await expectVisible(menu.getByText('Admin', { exact: true }));
    await expectVisible(menu.getByRole('menuitem', { name: 'Log out' }));
  });

  it('signs in an ordinary user made with `portalwright user create`: no Admin in the profile menu', async () => {
    await e2e.server.createUser({ username: 'bob', password: 'secret1', firstName: 'Bob', lastName: 'Builder', email: 'bob@example.test' });
    const page = await e2e.newPage();
    const login = await signIn(page, { username: 'bob', password: 'secret1' });
    assert.equal(login.profile.user.admin, false);
    await shell(page).profileButton.click();
    const menu = page.getByRole('menu');
    await expectVisible(menu.getByText('Bob Builder', { exact: true }));
    await expectVisible(menu.getByText('bob', { exact: true }));
    await expectVisible(menu.getByText('bob@example.test', { exact: true }));
    await expectVisible(menu.getByRole('menuitem', { name: 'Log out' }));
    assert.equal(await menu.getByText('Admin', { exact: true }).count(), 0, "an ordinary user is not shown as 'Admin'");
  });

  it('refuses a wrong password with "Incorrect Username or Password." and stays on the login screen', async () => {
    const page = await e2e.newPage();
    await page.goto('/#/');
    const login = loginScreen(page);
    await login.username.fill(ADMIN_USERNAME);
    await login.password.fill('not-the-password');
    await login.terms.check();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/user/login')),
      login.signIn.click(),
    ]);
    assert.equal(response.status(), 401);
    await expectVisible(login.error);
    await expectLoginScreen(page);
    assert.equal(await shell(page).welcome.count(), 0, 'no dashboard after a failed sign-in');
    assert.equal(await shell(page).profileButton.count(), 0, 'no shell after a failed sign-in');
  });

  it("keeps 'Sign in' disabled until the terms are accepted", async () => {
    const page = await e2e.newPage();
    await page.goto('/#/');
    const login = loginScreen(page);
    await expectLoginScreen(page);
    await login.username.fill(ADMIN_USERNAME);
    await login.password.fill(ADMIN_PASSWORD);
    assert.equal(await login.terms.isChecked(), false, 'terms start unticked in a fresh browser');
    await expectDisabled(login.signIn);
    await login.terms.check();
    await expectEnabled(login.signIn);
    await login.terms.uncheck();
    await expectDisabled(login.signIn);
  });

  it('logs out through the profile menu: overlay, login screen, and the old token is revoked', async () => {
    const page = await e2e.newPage();
    const { id_token: token } = await signIn(page);
    const api = apiClient(e2e.server, token);
    assert.equal((await api.call('GET', 'user/profile')).status, 200);

    // Hold the logout call until the overlay has been seen, so its check cannot race the request.
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/api/v1/user/logout', async (route) => {
      await held;
      await route.continue();
    });
    const overlay = overlays(page).filter({ hasText: 'Please Wait - Logging Out' }).first();
    await shell(page).profileButton.click();
    await shell(page).logOut.click();
    try {
      await expectVisible(overlay);
    } finally {
      release();
    }
    await expectLoginScreen(page);
    await expectHidden(overlay);
    await expectHidden(shell(page).profileButton);

    assert.equal((await api.call('GET', 'user/profile')).status, 401, 'the token of the ended session is refused');
  });

  it('with Remember Me, a reload keeps the user signed in', async () => {
    const page = await e2e.newPage();
    await signIn(page, { remember: true });
    await page.reload();
    await expectShell(page);
    assert.equal(await loginScreen(page).username.count(), 0, 'no login screen after the reload');
  });

  it('without Remember Me, a reload shows the login screen', async () => {
    const page = await e2e.newPage();
    await signIn(page, { remember: false });
    await page.reload();
    await expectLoginScreen(page);
    await expectHidden(shell(page).profileButton);
  });

  it("'Forgot Password' switches to the reset view and 'Go to login' back", async () => {
    const page = await e2e.newPage();
    await page.goto('/#/');
    const login = loginScreen(page);
    await login.forgotPassword.click();
    await expectVisible(page.getByRole('button', { name: 'Request Reset' }));
    await expectHidden(login.signIn);
    await page.getByRole('link', { name: 'Go to login' }).click();
    await expectLoginScreen(page);
  });
});
