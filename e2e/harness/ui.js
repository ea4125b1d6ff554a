// The UI contract: accessible locators for the screens, and flows built on them.
import { ADMIN_USERNAME, ADMIN_PASSWORD } from './server.js';
import { expectVisible, eventually } from './expect.js';

export const loginScreen = (page) => ({
  username: page.getByLabel('Username', { exact: true }),
  password: page.getByLabel('Password', { exact: true }),
  terms: page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }),
  remember: page.getByRole('checkbox', { name: 'Remember Me' }),
  signIn: page.getByRole('button', { name: 'Sign in', exact: true }),
  forgotPassword: page.getByRole('link', { name: 'Forgot Password' }),
  error: page.getByRole('alert').filter({ hasText: 'Incorrect Username or Password.' }),
});

export const shell = (page) => ({
  welcome: page.getByRole('heading', { name: /Welcome/ }),
  profileButton: page.getByRole('button', { name: /^Profile\b/ }),
  logOut: page.getByRole('menuitem', { name: 'Log out' }),
  versionButton: page.getByRole('button', { name: /^Version / }),
  versionDialog: page.getByRole('dialog', { name: 'Version' }),
  /** The header's local changes button showing n changes. */
  localChanges: (n) => page.getByRole('button', { name: `Local changes: ${n}`, exact: true }),
});

/** Overlays (busy indicators) of the app. */
export const overlays = (page) => page.locator('[role="progressbar"], [data-testid="overlay"]');

/** Waits until the login screen is shown. */
export async function expectLoginScreen(page) {
  const login = loginScreen(page);
  await expectVisible(login.username);
  await expectVisible(login.signIn);
}

/** Waits until the signed-in shell is shown. */
export async function expectShell(page) {
  await expectVisible(shell(page).welcome);
  await expectVisible(shell(page).profileButton);
}

/**
 * Signs in through the login screen (opening /#/ first unless stay is set) and waits for the
 * shell. Returns the body of the login API response the app received ({id_token, …}).
 */
export async function signIn(page, { username = ADMIN_USERNAME, password = ADMIN_PASSWORD, remember = false, stay = false } = {}) {
  if (!stay) await page.goto('/#/');
  const login = loginScreen(page);
  await login.username.fill(username);
  await login.password.fill(password);
  await login.terms.check();
  if (remember) await login.remember.check();
  else if (await login.remember.isChecked()) await login.remember.uncheck();
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/v1/user/login') && r.request().method() === 'POST'),
    login.signIn.click(),
  ]);
  if (response.status() !== 200) throw new Error(`sign-in as ${username}: HTTP ${response.status()} ${await response.text()}`);
  const body = await response.json();
  await expectShell(page);
  return body;
}

/** Takes the page offline: context.setOffline(true), plus an 'offline' event if Chromium sent none. */
export async function goOffline(page) {
  await setOnline(page, false);
}

export async function goOnline(page) {
  await setOnline(page, true);
}

async function setOnline(page, online) {
  const type = online ? 'online' : 'offline';
  await page.evaluate((type) => {
    window.__e2eNetEvent = null;
    window.addEventListener(type, () => { window.__e2eNetEvent = type; }, { once: true });
  }, type);
  await page.context().setOffline(!online);
  await eventually(async () => {
    if ((await page.evaluate(() => navigator.onLine)) !== online) throw new Error(`navigator.onLine is not ${online}`);
  });
  const fired = await page
    .waitForFunction((type) => window.__e2eNetEvent === type, type, { timeout: 2_000 })
    .then(() => true, () => false);
  if (!fired) await page.evaluate((type) => window.dispatchEvent(new Event(type)), type);
}

/**
 * Revert All from the header's local changes panel (open or not), answered Yes. It waits until
 * the header counts a change, then opens the panel and clicks Revert All until the confirmation is asked:
 * the header and the panel re-render as the live counts arrive, and on a loaded machine a click
 * right after a save found no panel open (a CI run). The caller checks what the revert did.
 */
export async function revertAll(page) {
  const localChanges = page.getByRole('button', { name: /^Local changes: [1-9]/ });
  const panel = page.getByRole('region', { name: 'Local changes' });
  const yes = page.getByRole('button', { name: 'Yes', exact: true });
  // An open panel is modal: the header behind it is hidden from the accessibility tree.
  if (!(await panel.isVisible())) await expectVisible(localChanges, { timeout: 25_000 });
  await eventually(
    async () => {
      if (await yes.isVisible()) return;
      if (!(await panel.isVisible())) await localChanges.click({ timeout: 2000 });
      await panel.getByRole('button', { name: 'Revert All' }).click({ timeout: 2000 });
      await expectVisible(yes, { timeout: 2000 });
    },
    { timeout: 25_000 },
  );
  await yes.click();
}
