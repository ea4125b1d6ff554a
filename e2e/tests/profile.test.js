// The profile dialog (spec 1 §2.5, §5.2): details, password and SSH key against the real server.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, apiSession, signIn, shell, expectVisible, expectHidden, expectEnabled, expectDisabled, expectText,
  expectLoginScreen, eventually,
} from '../harness/index.js';

const CAROL = { username: 'carol', password: 'carol-pass1', firstName: 'Carol', lastName: 'Danvers', email: 'carol@example.test' };
const GRACE = { username: 'grace', password: 'grace-pass1', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.test' };
const HEDY = { username: 'hedy', password: 'hedy-pass1', firstName: 'Hedy', lastName: 'Lamarr', email: 'hedy@example.test' };

async function openProfile(page) {
  await shell(page).profileButton.click();
  await page.getByRole('menuitem', { name: 'Edit Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  await expectVisible(dialog);
  return dialog;
}

async function closeProfile(page, dialog) {
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expectHidden(dialog);
}

describe('profile', { timeout: 60_000 }, () => {
  const e2e = useE2E({ server: { users: [CAROL, GRACE, HEDY] } });

  it('refuses an invalid first name, then saves a valid one shown in the profile menu', async () => {
    const page = await e2e.newPage();
    await signIn(page, CAROL);
    const dialog = await openProfile(page);
    const firstName = dialog.getByLabel(/^First name/);
    const save = dialog.getByRole('button', { name: 'Save' });
    assert.equal(await firstName.inputValue(), 'Carol');
    await expectDisabled(save);
    assert.equal(await dialog.getByLabel(/^Email/).isDisabled(), true, 'only admins edit the e-mail');

    await firstName.fill('J0hn');
    await expectVisible(dialog.getByText('Please do not use special characters.'));
    await expectDisabled(save);

    await firstName.fill('Johanna');
    await expectHidden(dialog.getByText('Please do not use special characters.'));
    await expectEnabled(save);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/user/update')),
      save.click(),
    ]);
    assert.equal(response.status(), 200);
    await expectVisible(page.getByText('Profile Updated.'));
    await expectDisabled(save);
    await closeProfile(page, dialog);

    await shell(page).profileButton.click();
    await expectVisible(page.getByRole('menu').getByText('Johanna Danvers', { exact: true }));
  });

  it('changes the password: a wrong current password is refused, the new one signs in', async () => {
    const page = await e2e.newPage();
    await signIn(page, GRACE);
    const dialog = await openProfile(page);
    await dialog.getByRole('tab', { name: 'Login Details' }).click();
    assert.equal(await dialog.getByLabel('User name').inputValue(), 'grace');
    const current = dialog.getByLabel(/^Current password/);
    const next = dialog.getByLabel(/^New password/);
    const confirm = dialog.getByLabel(/^Confirm new password/);
    const save = dialog.getByRole('button', { name: 'Save' });

    await current.fill('not-my-password');
    await next.fill('not-my-password');
    await expectVisible(dialog.getByText("The new password can't be the same as the current password"));
    await next.fill('grace-new-2');
    await confirm.fill('grace-new-3');
    await expectVisible(dialog.getByText("The confirm new password doesn't match the new password"));
    await expectDisabled(save);
    await confirm.fill('grace-new-2');
    await expectEnabled(save);
    await save.click();
    await expectText(dialog.getByRole('alert'), 'The current password is incorrect.');

    await current.fill(GRACE.password);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/user/password')),
      save.click(),
    ]);
    assert.equal(response.status(), 204);
    await expectVisible(page.getByText('Password Changed.'));
    await closeProfile(page, dialog);

    await shell(page).profileButton.click();
    // Logging out reloads the page (spec 1 §4.1): sign in again on the reloaded page.
    await Promise.all([page.waitForEvent('load'), shell(page).logOut.click()]);
    await expectLoginScreen(page);
    await signIn(page, { username: GRACE.username, password: 'grace-new-2', stay: true });
    await expectVisible(shell(page).welcome);
  });

  it('generates an SSH key pair', async () => {
    const page = await e2e.newPage();
    await signIn(page, HEDY);
    const dialog = await openProfile(page);
    await dialog.getByRole('tab', { name: 'SSH Key' }).click();
    const publicKey = dialog.getByLabel(/^Public key/);
    const privateKey = dialog.getByLabel(/^Private key/);
    assert.equal(await privateKey.getAttribute('readonly'), '', 'the private key is read-only');
    await dialog.getByRole('button', { name: 'Generate Key' }).click();
    await eventually(async () => assert.match(await publicKey.inputValue(), /^ssh-ed25519 \S+/));
    await eventually(async () => assert.ok((await privateKey.inputValue()).startsWith('-----BEGIN OPENSSH PRIVATE KEY-----')));

    // The public key is stored on the account. (Read it before signing in through the API: that
    // new session ends the browser's, whose socket is then closed and the page signed out.)
    const shown = (await publicKey.inputValue()).trim();
    const profile = await (await apiSession(e2e.server, HEDY.username, HEDY.password)).ok('GET', 'user/profile');
    assert.equal(profile.user.publicKey.trim(), shown);
  });
});
