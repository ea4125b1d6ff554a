// The Administration area against the real server: the system banner, creating a user who
// signs in with the one-time password from the Mail Outbox, and a domain with a permission
// group the new user is added to.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  useE2E, apiSession, signIn, loginScreen, expectShell, expectVisible, expectHidden, expectText, expectURL, expectCount,
} from '../harness/index.js';

const sideNav = (page) => page.getByRole('navigation', { name: 'Side navigation' });
const adminEntry = (page, label) => sideNav(page).getByRole('button', { name: label, exact: true });
/** A success toast (a status message under its 'SUCCESS' title) carrying `text`. */
const toast = (page, text) => page.getByRole('status').filter({ hasText: text });

/** Picks `option` in the MUI select labelled `label` (within `scope`). */
async function choose(page, scope, label, option) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expectHidden(page.getByRole('listbox'));
}

describe('admin', { timeout: 120_000 }, () => {
  const e2e = useE2E();
  /** The user created through the Users screen in the second test, with the password they chose. */
  let created = null;

  it('System Preferences turns the banner on; an ordinary user sees it as text after a reload', async () => {
    const message = 'Maintenance tonight at 22:00 <b>no html</b>';
    const admin = await e2e.newPage();
    await signIn(admin);
    await adminEntry(admin, 'System Preferences').click();
    await expectURL(admin, /#\/admin\/preferences$/);
    await expectVisible(admin.getByRole('heading', { name: 'System Preferences' }));
    await admin.getByRole('switch', { name: 'Show the system banner' }).check();
    await admin.getByLabel('Banner message').fill(message);
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await expectVisible(toast(admin, 'Preferences saved.'));
    const adminBanner = admin.getByRole('status', { name: 'System banner' });
    await expectText(adminBanner, message);

    await e2e.server.createUser({ username: 'carol', password: 'secret1', firstName: 'Carol', lastName: 'Reader' });
    const carol = await e2e.newPage();
    await signIn(carol, { username: 'carol', password: 'secret1', remember: true });
    await carol.reload();
    await expectShell(carol);
    const banner = carol.getByRole('status', { name: 'System banner' });
    await expectText(banner, message);
    assert.equal(await banner.locator('b').count(), 0, 'the message is text, not HTML');
    await expectCount(sideNav(carol).getByText('Administration', { exact: true }), 0);
  });

  it('Users creates a user; the one-time password from the Mail Outbox lets them choose a password', async () => {
    const user = { userName: 'dave', firstName: 'Dave', lastName: 'Newman', email: 'dave@example.test', password: 'dave-pass-1' };
    const admin = await e2e.newPage();
    await signIn(admin);
    await adminEntry(admin, 'Users').click();
    await expectURL(admin, /#\/admin\/users\/-1$/);
    await expectVisible(admin.getByRole('table', { name: 'Users' }).getByRole('row', { name: /admin/ }));

    await admin.getByRole('button', { name: 'Create User' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Create User' });
    await dialog.getByLabel('Username').fill(user.userName);
    await dialog.getByLabel('First name').fill(user.firstName);
    await dialog.getByLabel('Last name').fill(user.lastName);
    await dialog.getByLabel('E-mail').fill(user.email);
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expectVisible(toast(admin, `User created. A one-time password was e-mailed to ${user.email}.`));
    await expectHidden(dialog);
    await expectVisible(admin.getByRole('table', { name: 'Users' }).getByRole('row', { name: /dave/ }));
    await expectVisible(admin.getByRole('heading', { name: user.userName }));

    // The Mail Outbox holds the mail (no SMTP in the test server: 'held').
    await adminEntry(admin, 'Mail Outbox').click();
    await expectURL(admin, /#\/admin\/outbox$/);
    const row = admin.getByRole('table', { name: 'Outbox' }).getByRole('row', { name: new RegExp(user.email) });
    await expectVisible(row);
    // The subject opens the message (the row's other button is Retry).
    await row.getByRole('button', { name: /^(?!Retry).*one-time password/ }).click();
    const mail = admin.getByRole('dialog', { name: /one-time password/ });
    const text = await expectText(mail.getByLabel('Message text'), /one-time password is/);
    const otp = /one-time password is:\s*(\S+)/.exec(text)?.[1];
    assert.ok(otp, `no one-time password in ${JSON.stringify(text)}`);

    // The API agrees with the screen.
    const outbox = await (await apiSession(e2e.server)).ok('GET', 'admin/outbox');
    assert.ok(outbox.some((m) => m.to === user.email && m.text.includes(otp)), 'the outbox API holds the same mail');

    // The new user signs in with it, is switched to the one-time form and sets a password.
    const page = await e2e.newPage();
    await page.goto('/#/');
    const login = loginScreen(page);
    await login.username.fill(user.userName);
    await login.password.fill(otp);
    await login.terms.check();
    await login.signIn.click();
    const create = page.getByRole('button', { name: 'Create Password' });
    await expectVisible(create);
    await page.getByLabel('One-time password').fill(otp);
    await page.getByLabel('New password', { exact: true }).fill(user.password);
    await page.getByLabel('Confirm new password').fill(user.password);
    await create.click();
    await expectShell(page);
    created = user;
  });

  it('Domains: a domain, a group with a permission, a member; the member sees the domain and no Administration', async () => {
    const member = created ?? { userName: 'erin', firstName: 'Erin', lastName: 'Member', password: 'erin-pass-1' };
    if (!created) await e2e.server.createUser({ username: member.userName, password: member.password, firstName: member.firstName, lastName: member.lastName });
    const domainName = 'Airline E2E';

    const admin = await e2e.newPage();
    await signIn(admin);
    await adminEntry(admin, 'Domains').click();
    await expectVisible(admin.getByRole('heading', { name: 'Domains', exact: true }));

    await admin.getByRole('button', { name: 'Create Domain' }).click();
    const create = admin.getByRole('dialog', { name: 'Create Domain' });
    await create.getByLabel('Domain name').fill(domainName);
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    await expectVisible(toast(admin, `Domain ${domainName} created.`));
    await expectVisible(admin.getByRole('heading', { name: domainName }));
    await expectURL(admin, /#\/admin\/domains\/\d+$/);

    await admin.getByRole('button', { name: 'Create Group' }).click();
    const group = admin.getByRole('dialog', { name: 'Create Group' });
    await group.getByLabel('Group name').fill('Editors');
    await group.getByRole('checkbox', { name: 'Create domain users' }).check();
    await group.getByRole('button', { name: 'Create', exact: true }).click();
    await expectVisible(toast(admin, 'Group Editors created.'));
    const groups = admin.getByRole('table', { name: 'Permission groups' });
    await expectText(groups.getByRole('row', { name: /Editors/ }), 'Create domain users');

    await admin.getByRole('button', { name: 'Add Member' }).click();
    const add = admin.getByRole('dialog', { name: 'Add Member' });
    await choose(admin, add, 'User', `${member.userName} (${member.firstName} ${member.lastName})`);
    await choose(admin, add, 'Group (optional)', 'Editors');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await expectVisible(toast(admin, `${member.userName} added to ${domainName} (Editors).`));
    const members = admin.getByRole('table', { name: 'Members' });
    await expectText(members.getByRole('row', { name: new RegExp(member.userName) }), 'Editors');

    const page = await e2e.newPage();
    await signIn(page, { username: member.userName, password: member.password });
    await expectCount(sideNav(page).getByText('Administration', { exact: true }), 0);
    await expectCount(sideNav(page).getByRole('button', { name: 'Users', exact: true }), 0);
    await sideNav(page).getByRole('button', { name: /^Select Domain/ }).click();
    await expectVisible(page.getByRole('list', { name: 'Domains' }).getByRole('button', { name: domainName }));
    await page.keyboard.press('Escape');

    // A typed-in admin URL shows the permission message, not the screen.
    await page.goto('/#/admin/users/-1');
    await expectVisible(page.getByRole('alert').filter({ hasText: 'You do not have the right permission to access to this section.' }));
    await expectCount(page.getByRole('table', { name: 'Users' }), 0);
  });
});
