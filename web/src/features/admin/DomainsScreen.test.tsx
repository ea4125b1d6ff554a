import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import DomainsScreen from './DomainsScreen';
import { useSelectionStore } from '../../core/selectionStore';
import { bodyOf, called } from '../../test/helpers';
import { adminUser, renderScreen } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const noContent = () => new Response(null, { status: 204 });
const bob = { id: 2, userName: 'bob', firstName: 'Bob', lastName: 'Builder', email: 'bob@x.test', admin: false };
const eve = { id: 3, userName: 'eve', firstName: 'Eve', lastName: 'Adams', email: 'eve@x.test', admin: false };

function serve(extra: Parameters<typeof mockFetch>[0] = {}, domains = [{ id: 4, name: 'Airline A' }]) {
  return mockFetch({
    'GET api/v1/domain/': () => jsonResponse(domains),
    'GET api/v1/domain/users/4': () => jsonResponse([bob]),
    'GET api/v1/domain/usersInfo/4': () => jsonResponse([{ userId: 2, accountGroups: [{ groupName: 'Editors' }] }]),
    'GET api/v1/permissions/getGroups/4': () =>
      jsonResponse([
        { id: 1, groupName: 'Editors', permissions: ['page_read', 'domain_user_create'] },
        { id: 2, groupName: 'Viewers', permissions: ['page_read'] },
      ]),
    'GET api/v1/permissions/catalogue': () =>
      jsonResponse(['domain_read', 'domain_user_create', 'page_read', 'page_write', 'portal_settings_read']),
    'GET api/v1/domain/4/candidates': () => jsonResponse([bob, eve]),
    ...extra,
  });
}

function render(path = '/admin/domains/4') {
  const utils = renderScreen(DomainsScreen, '/admin/domains/:domainId', path);
  return { ...utils, user: userEvent.setup() };
}

describe('Domains', () => {
  it('opens the first domain for -1 when there is one', async () => {
    serve({}, [
      { id: 5, name: 'Zeta' },
      { id: 4, name: 'Airline A' },
    ]);
    const { router } = render('/admin/domains/-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/domains/4'));
    expect(await screen.findByRole('heading', { name: 'Airline A' })).toBeInTheDocument();
  });

  it('stays on -1 with no domain and offers Create Domain with the name rule', async () => {
    const fetch = serve({ 'POST api/v1/domain/': () => jsonResponse({ id: 8, name: 'New One' }, 201) }, []);
    const { user, router } = render('/admin/domains/-1');
    expect(await screen.findByText(/No domains yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Domain' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Domain' });
    const name = within(dialog).getByLabelText(/^Domain name/);
    await user.type(name, 'Bad-name!');
    expect(
      within(dialog).getByText('Please enter only Alphanumeric characters, spaces and/or Underscores.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'New One');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Domain New One created.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/domain/')).toEqual({ name: 'New One' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/domains/8'));
  });

  it('renames and deletes a domain, saying first which portals, members and groups go with it', async () => {
    const fetch = serve({
      'PUT api/v1/domain/4': () => jsonResponse({ id: 4, name: 'Airline B' }),
      'DELETE api/v1/domain/4': noContent,
      'GET api/v1/portal/4': () =>
        jsonResponse([
          { id: 7, domainId: 4, name: 'Passenger Portal' },
          { id: 6, domainId: 4, name: 'Crew Portal' },
        ]),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Domain' });
    const name = within(dialog).getByLabelText(/^Domain name/);
    expect(name).toHaveValue('Airline A');
    expect(within(dialog).getByRole('button', { name: 'Rename' })).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Airline B');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Domain renamed to Airline B.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'PUT api/v1/domain/4')).toEqual({ name: 'Airline B' });

    await user.click(await screen.findByRole('button', { name: 'Delete Domain' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Domain' });
    expect(confirm).toHaveTextContent('Delete the domain Airline A? This cannot be undone.');
    const portals = await within(confirm).findByRole('list', { name: 'Portals to delete' });
    expect(
      within(portals)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Crew Portal', 'Passenger Portal']);
    expect(confirm).toHaveTextContent('Its 2 portals, with their repositories, branches and every workspace');
    expect(await within(confirm).findByRole('list', { name: 'Members losing access' })).toHaveTextContent(
      'Bob Builder (bob)',
    );
    expect(within(confirm).getByRole('list', { name: 'Groups to delete' })).toHaveTextContent('EditorsViewers');
    expect(called(fetch, 'DELETE api/v1/domain/4')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete Domain' }));
    expect(await screen.findByText('Domain Airline A deleted.')).toBeInTheDocument();
    expect(called(fetch, 'DELETE api/v1/domain/4')).toBe(true);
  });

  it('offers Delete only once the portals of the domain are known', async () => {
    const fetch = serve({
      'GET api/v1/portal/4': () => errorResponse(500, { errorMessage: 'Database unavailable' }),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Delete Domain' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Domain' });
    expect(await within(dialog).findByText(/Could not list the portals of the domain/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete Domain' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(called(fetch, 'DELETE api/v1/domain/4')).toBe(false);
  });

  it('lists the members with their groups; assigns and removes groups; removes a member', async () => {
    const fetch = serve({
      'PUT api/v1/permissions/updateRoles/2/4/Viewers': noContent,
      'DELETE api/v1/permissions/updateRoles/2/4/Editors': noContent,
      'DELETE api/v1/domain/deleteUser/4/2': noContent,
    });
    const { user } = render();
    const members = await screen.findByRole('table', { name: 'Members' });
    const row = await within(members).findByRole('row', { name: /bob/ });
    expect(row).toHaveTextContent('Bob Builder');
    expect(row).toHaveTextContent('Editors');

    await user.click(within(row).getByRole('combobox', { name: 'Add group for bob' }));
    await user.click(await screen.findByRole('option', { name: 'Viewers' }));
    expect(await screen.findByText('bob added to Viewers.')).toBeInTheDocument();
    expect(called(fetch, 'PUT api/v1/permissions/updateRoles/2/4/Viewers')).toBe(true);

    await user.click(within(row).getByRole('button', { name: 'Remove bob from Editors' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('bob removed from Editors.')).toBeInTheDocument();
    expect(called(fetch, 'DELETE api/v1/permissions/updateRoles/2/4/Editors')).toBe(true);

    await user.click(within(row).getByRole('button', { name: 'Remove bob from the domain' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('bob removed from Airline A.')).toBeInTheDocument();
    expect(called(fetch, 'DELETE api/v1/domain/deleteUser/4/2')).toBe(true);
  });

  it('adds an existing user with a group', async () => {
    const fetch = serve({
      'POST api/v1/domain/4/addUser': noContent,
      'PUT api/v1/permissions/updateRoles/3/4/Editors': noContent,
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Add Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
    await user.click(await within(dialog).findByRole('combobox', { name: 'User' }));
    // Members are not offered again.
    expect(screen.queryByRole('option', { name: /^bob/ })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'eve (Eve Adams)' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Group (optional)' }));
    await user.click(await screen.findByRole('option', { name: 'Editors' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('eve added to Airline A (Editors).')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/domain/4/addUser')).toEqual({ id: '3' });
    expect(called(fetch, 'PUT api/v1/permissions/updateRoles/3/4/Editors')).toBe(true);
  });

  it('creates a group with permissions chosen by resource', async () => {
    const fetch = serve({
      'POST api/v1/permissions/createGroup/4': () => jsonResponse({ groupName: 'Authors', permissions: [] }, 201),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Create Group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Group' });
    const page = await within(dialog).findByRole('group', { name: 'page' });
    expect(within(dialog).getByRole('group', { name: 'portal' })).toHaveTextContent('View portal settings');
    await user.type(within(dialog).getByLabelText(/^Group name/), 'Authors');
    await user.click(within(page).getByRole('checkbox', { name: 'Edit pages' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'View the domain' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Group Authors created.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/permissions/createGroup/4')).toEqual({
      groupName: 'Authors',
      permissions: ['domain_read', 'page_write'],
    });
  });

  it("edits a group's permissions and deletes a group", async () => {
    const fetch = serve({
      'PUT api/v1/permissions/updatePermissions/4/Viewers': () => jsonResponse({}),
      'DELETE api/v1/permissions/deleteGroup/4/Viewers': noContent,
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Edit permissions of Viewers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Permissions: Viewers' });
    const pageRead = await within(dialog).findByRole('checkbox', { name: 'View pages' });
    expect(pageRead).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(pageRead);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Edit pages' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Permissions of Viewers saved.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'PUT api/v1/permissions/updatePermissions/4/Viewers')).toEqual(['page_write']);

    await user.click(await screen.findByRole('button', { name: 'Delete group Viewers' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Group Viewers deleted.')).toBeInTheDocument();
    expect(called(fetch, 'DELETE api/v1/permissions/deleteGroup/4/Viewers')).toBe(true);
  });

  it('refuses a domain name longer than 100 characters, as the server does', async () => {
    serve({}, []);
    const { user } = render('/admin/domains/-1');
    await user.click(await screen.findByRole('button', { name: 'Create Domain' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Domain' });
    await user.click(within(dialog).getByLabelText(/^Domain name/));
    await user.paste('a'.repeat(101));
    expect(within(dialog).getByText('The name must be at most 100 characters.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
  });

  it('sends one request when Create is double-clicked, and shows a server error in the form', async () => {
    let calls = 0;
    let answer: (r: Response) => void = () => undefined;
    serve(
      {
        'POST api/v1/domain/': () => {
          calls++;
          return new Promise<Response>((resolve) => (answer = resolve));
        },
      },
      [],
    );
    const { user } = render('/admin/domains/-1');
    await user.click(await screen.findByRole('button', { name: 'Create Domain' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Domain' });
    await user.type(within(dialog).getByLabelText(/^Domain name/), 'Twice');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    await user.dblClick(create);
    await waitFor(() => expect(create).toBeDisabled());
    fireEvent.click(create);
    expect(calls).toBe(1);
    answer(errorResponse(409, { errorTitle: 'Conflict', errorMessage: 'A domain with this name exists.' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Could not create the domain');
    expect(alert).toHaveTextContent('A domain with this name exists.');
    expect(alert).not.toHaveTextContent('Conflict');
  });

  it('does not offer a non-admin changes to their own roles; offers Add Member from the candidates', async () => {
    const fetch = serve({
      'GET api/v1/domain/users/4': () => jsonResponse([bob, { ...eve, id: 9, userName: 'mia', firstName: 'Mia' }]),
      'GET api/v1/domain/usersInfo/4': () =>
        jsonResponse([
          { userId: 2, accountGroups: [{ groupName: 'Editors' }] },
          { userId: 9, accountGroups: [{ groupName: 'Editors' }] },
        ]),
      'GET api/v1/domain/4/candidates': () => jsonResponse([eve]),
      'POST api/v1/domain/4/addUser': noContent,
    });
    useSelectionStore.setState({ domain: { id: 4, name: 'Airline A' }, permissions: ['domain_user_create'] });
    const mia = { ...adminUser, id: 9, userName: 'mia', admin: false };
    const user = userEvent.setup();
    renderScreen(DomainsScreen, '/admin/domains/:domainId', '/admin/domains/4', mia);
    const members = await screen.findByRole('table', { name: 'Members' });
    const own = await within(members).findByRole('row', { name: /mia/ });
    expect(within(own).queryByRole('button', { name: 'Remove mia from Editors' })).not.toBeInTheDocument();
    expect(within(own).getByRole('combobox', { name: 'Add group for mia' })).toHaveAttribute('aria-disabled', 'true');
    const other = within(members).getByRole('row', { name: /bob/ });
    expect(within(other).getByRole('button', { name: 'Remove bob from Editors' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
    await user.click(await within(dialog).findByRole('combobox', { name: 'User' }));
    await user.click(await screen.findByRole('option', { name: 'eve (Eve Adams)' }));
    expect(within(dialog).queryByRole('combobox', { name: 'Group (optional)' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('eve added to Airline A.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/domain/4/addUser')).toEqual({ id: '3' });
  });
});
