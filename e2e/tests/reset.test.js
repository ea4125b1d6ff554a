// Forgotten password: the login screen's reset request, the e-mailed link read from the
// mail outbox (no SMTP in tests: the mail is held there, as in a fresh installation), the
// confirm-password screen, and signing in with the new password.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useE2E, apiClient, apiSession, signIn, expectShell, expectVisible, expectLoginScreen, shell } from '../harness/index.js';

describe('password reset', { timeout: 90_000 }, () => {
  const e2e = useE2E({ server: { users: [{ username: 'erin', password: 'erin-old-pass', firstName: 'Erin', lastName: 'Reset', email: 'erin@example.test' }] } });

  it('request → outbox link → confirm screen → signed in with the new password', async () => {
    const page = await e2e.newPage();
    await page.goto('/#/');
    await expectLoginScreen(page);
    await page.getByRole('link', { name: 'Forgot Password' }).click();
    await page.getByLabel('Username').fill('erin');
    await page.getByLabel('New Password').fill('erin-new-pass');
    await page.getByRole('button', { name: 'Request Reset' }).click();
    await expectVisible(page.getByText('Please check your email for the password reset link'));

    // The mail is in the outbox; an admin could read it in Administration → Mail Outbox.
    const res = await (await apiSession(e2e.server)).call('GET', 'admin/outbox?to=erin@example.test');
    assert.equal(res.status, 200);
    const mails = res.body;
    assert.equal(mails.length, 1, 'one reset mail');
    const link = mails[0].text.match(/https?:\/\/\S+#\/confirm-password\/[0-9a-f-]{36}/)?.[0];
    assert.ok(link, `a confirmation link in: ${mails[0].text}`);
    assert.ok(link.startsWith(e2e.server.url('/')), `the link points at this server: ${link}`);

    // Until the link is confirmed the old password still works.
    await e2e.server.apiLogin('erin', 'erin-old-pass');

    const confirm = await e2e.newPage();
    await confirm.goto(link);
    await confirm.getByLabel('Confirm password', { exact: true }).fill('erin-new-pass');
    await confirm.getByRole('button', { name: 'RESET' }).click();
    await expectShell(confirm);

    await e2e.server.apiLogin('erin', 'erin-new-pass');
    const old = await apiClient(e2e.server).call('POST', 'user/login', { username: 'erin', password: 'erin-old-pass' });
    assert.equal(old.status, 401, 'the old password no longer works');

    const fresh = await e2e.newPage();
    await signIn(fresh, { username: 'erin', password: 'erin-new-pass' });
    await expectVisible(shell(fresh).welcome);
  });

  it('a wrong confirmation shows the spec message', async () => {
    const page = await e2e.newPage();
    await page.goto('/#/confirm-password/00000000-0000-0000-0000-000000000000');
    await page.getByLabel('Confirm password', { exact: true }).fill('whatever1');
    await page.getByRole('button', { name: 'RESET' }).click();
    await expectVisible(page.getByText('Password or Token was invalid, try again.'));
  });
});
