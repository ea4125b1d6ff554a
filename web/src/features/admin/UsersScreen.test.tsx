import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { bodyOf, called } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import UsersScreen from './UsersScreen';

afterEach(() => vi.unstubAllGlobals());

const ada = {
  id: 7,
  userName: 'ada',
  firstName: 'Ada',
  middleName: '',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  admin: false,
  lastLoggedIn: '2026-03-05T14:07:00',
  optOutNotification: false,
};
const root = { ...ada, id: 1, userName: 'admin', firstName: 'Portal', lastName: 'Admin', email: '', admin: true };

function serve(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET api/v1/user/all': () => jsonResponse([root, ada]),
    'GET api/v1/user/7/roles': () => jsonResponse([{ domainId: 4, domainName: 'Airline A', roles: ['Editors'] }]),
    'GET api/v1/domain/': () => jsonResponse([{ id: 4, name: 'Airline A' }]),
    'GET api/v1/permissions/getGroups/4': () =>
      jsonResponse([
        { groupName: 'Editors', permissions: ['page_read'] },
        { groupName: 'Viewers', permissions: [] },
      ]),
    ...extra,
  });
}

function render(path = '/admin/users/-1') {
  const utils = renderScreen(UsersScreen, '/admin/users/:userId', path);
  return { ...utils, user: userEvent.setup() };
}

describe('Users', () => {
  it("lists the users with the last sign-in as 'MM/dd/y HH:mm'", async () => {
    serve();
    render();
    const table = await screen.findByRole('table', { name: 'Users' });
    const row = await within(table).findByRole('row', { name: /ada/ });
    expect(row).toHaveTextContent('Ada Lovelace');
    expect(row).toHaveTextContent('ada@example.com');
    expect(row).toHaveTextContent('03/05/2026 14:07');
    expect(screen.getByText('Select a user to see the details.')).toBeInTheDocument();
  });

  it('opens a user from the list', async () => {
    serve();
    const { user, router } = render();
    await user.click(await screen.findByRole('button', { name: 'ada' }));
    expect(router.state.location.pathname).toBe('/admin/users/7');
    expect(await screen.findByRole('heading', { name: 'ada' })).toBeInTheDocument();
  });

  it('validates the Create User form with the spec messages', async () => {
    serve();
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Username/), 'bad name!');
    await user.click(within(dialog).getByLabelText(/^First name/));
    await user.click(within(dialog).getByLabelText(/^Last name/));
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'not-an-address');
    await user.tab();
    expect(
      within(dialog).getByText(
        'Username not valid. Please enter only alphanumeric characters, dashes and underscores with a max length of 20.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getAllByText('The field is required')).toHaveLength(2);
    expect(within(dialog).getByText('Please enter valid email address')).toBeInTheDocument();
    expect(create).toBeDisabled();
  });

  it('creates a user and says where the one-time password went', async () => {
    const fetch = serve({ 'POST api/v1/user/create': () => jsonResponse({ ...ada, id: 9, userName: 'grace' }, 201) });
    const { user, router } = render();
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    await user.type(within(dialog).getByLabelText(/^Username/), 'grace');
    await user.type(within(dialog).getByLabelText(/^First name/), 'Grace');
    await user.type(within(dialog).getByLabelText(/^Last name/), 'Hopper');
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'grace@example.com');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Administrator' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText('User created. A one-time password was e-mailed to grace@example.com.'),
    ).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/user/create')).toEqual({
      userName: 'grace',
      firstName: 'Grace',
      middleName: '',
      lastName: 'Hopper',
      email: 'grace@example.com',
      admin: true,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users/9'));
  });

  it("shows the server's error when the user cannot be created", async () => {
    serve({
      'POST api/v1/user/create': () =>
        errorResponse(409, { errorTitle: 'Conflict', errorMessage: 'A user with this username already exists.' }),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    await user.type(within(dialog).getByLabelText(/^Username/), 'ada');
    await user.type(within(dialog).getByLabelText(/^First name/), 'Ada');
    await user.type(within(dialog).getByLabelText(/^Last name/), 'L');
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'a@b.co');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    // The danger toast (the dialog stays open for a correction).
    expect(await screen.findByText('A user with this username already exists.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Create User' })).toBeInTheDocument();
  });

  it('edits a user: PUT /user/update with the id', async () => {
    const fetch = serve({ 'PUT api/v1/user/update': () => jsonResponse(ada) });
    const { user } = render('/admin/users/7');
    const form = await screen.findByRole('form', { name: 'User details' });
    const save = within(form).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    const last = within(form).getByLabelText(/^Last name/);
    await user.clear(last);
    expect(within(form).getByText('The field is required')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.type(last, 'King');
    await user.click(save);
    expect(await screen.findByText('User updated.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'PUT api/v1/user/update')).toEqual({
      id: 7,
      firstName: 'Ada',
      middleName: '',
      lastName: 'King',
      email: 'ada@example.com',
      admin: false,
      optOutNotification: false,
    });
  });

  it('deletes a user after the Yes/No prompt', async () => {
    const fetch = serve({ 'DELETE api/v1/user/delete/7': () => new Response(null, { status: 204 }) });
    const { user, router } = render('/admin/users/7');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const prompt = await screen.findByText(/Delete the user ada\?/);
    await user.click(within(prompt.closest('[role="alertdialog"]') as HTMLElement).getByRole('button', { name: 'No' }));
    expect(called(fetch, 'DELETE api/v1/user/delete/7')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await screen.findByText(/Delete the user ada\?/);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('User ada deleted.')).toBeInTheDocument();
    expect(called(fetch, 'DELETE api/v1/user/delete/7')).toBe(true);
    expect(router.state.location.pathname).toBe('/admin/users/-1');
  });

  it('forces a password reset after confirmation', async () => {
    const fetch = serve({ 'POST api/v1/user/force-reset-password': () => new Response(null, { status: 204 }) });
    const { user } = render('/admin/users/7');
    await user.click(await screen.findByRole('button', { name: 'Force Reset Password' }));
    await screen.findByText(/Force a password reset for ada\?/);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText('Password reset. A new one-time password was e-mailed to ada@example.com.'),
    ).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/user/force-reset-password')).toEqual({ id: 7 });
  });

  it('sends an e-mail to the user', async () => {
    const fetch = serve({ 'POST api/v1/user/send-email': () => jsonResponse({ queued: 1, noEmail: [] }) });
    const { user } = render('/admin/users/7');
    await user.click(await screen.findByRole('button', { name: 'Send E-mail' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send E-mail' });
    const send = within(dialog).getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Subject/), 'Hello');
    await user.type(within(dialog).getByLabelText(/^Message/), 'Welcome aboard');
    await user.click(send);
    expect(await screen.findByText('E-mail sent to ada.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/user/send-email')).toEqual({
      userIds: [7],
      subject: 'Hello',
      message: 'Welcome aboard',
    });
  });

  it('lists the roles per domain, adds one and removes one', async () => {
    const fetch = serve({
      'PUT api/v1/permissions/updateRoles/7/4/Viewers': () => new Response(null, { status: 204 }),
      'DELETE api/v1/permissions/updateRoles/7/4/Editors': () => new Response(null, { status: 204 }),
    });
    const { user } = render('/admin/users/7');
    // The table is shown while the roles load (a loading row): wait for the domain's row.
    const roles = await screen.findByRole('table', { name: 'Domain roles' });
    expect(await within(roles).findByRole('row', { name: /Airline A/ })).toHaveTextContent('Editors');

    await user.click(screen.getByRole('combobox', { name: 'Domain' }));
    await user.click(await screen.findByRole('option', { name: 'Airline A' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Group' })).not.toHaveAttribute('aria-disabled'));
    await user.click(screen.getByRole('combobox', { name: 'Group' }));
    await user.click(await screen.findByRole('option', { name: 'Viewers' }));
    await user.click(screen.getByRole('button', { name: 'Add Role' }));
    expect(await screen.findByText('Role Viewers added.')).toBeInTheDocument();
    expect(called(fetch, 'PUT api/v1/permissions/updateRoles/7/4/Viewers')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Remove role Editors in Airline A' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Role Editors removed.')).toBeInTheDocument();
    expect(called(fetch, 'DELETE api/v1/permissions/updateRoles/7/4/Editors')).toBe(true);
  });

  it('does not offer Delete or the admin toggle on your own account', async () => {
    serve({ 'GET api/v1/user/1/roles': () => jsonResponse([]) });
    render('/admin/users/1');
    const form = await screen.findByRole('form', { name: 'User details' });
    expect(within(form).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(within(form).getByRole('checkbox', { name: /^Administrator/ })).toBeDisabled();
  });

  it('refuses a last name with a digit, as the server does', async () => {
    serve();
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    await user.type(within(dialog).getByLabelText(/^Last name/), 'Hopper2');
    expect(within(dialog).getByText('Please do not use special characters.')).toBeInTheDocument();
  });

  it('sends one request when Create is double-clicked', async () => {
    let calls = 0;
    const fetch = serve({
      'POST api/v1/user/create': async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 50));
        return jsonResponse({ ...ada, id: 9, userName: 'grace' }, 201);
      },
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Create User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create User' });
    await user.type(within(dialog).getByLabelText(/^Username/), 'grace');
    await user.type(within(dialog).getByLabelText(/^First name/), 'Grace');
    await user.type(within(dialog).getByLabelText(/^Last name/), 'Hopper');
    await user.type(within(dialog).getByLabelText(/^E-mail/), 'grace@example.com');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(/User created/)).toBeInTheDocument();
    expect(calls).toBe(1);
    expect(called(fetch, 'POST api/v1/user/create')).toBe(true);
  });
});
