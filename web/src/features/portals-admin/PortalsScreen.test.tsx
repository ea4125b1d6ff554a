import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../core/selectionStore';
import { errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { bodyOf, called } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import PortalsScreen from './PortalsScreen';
import { noContent, queryOf } from '../../test/helpers';
import { builtIns, ownTemplate, portal } from './fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const crew = portal(1, 'Crew Portal', { categoryId: 10, category: 'Crew Portals' });
const legacy = portal(3, 'Legacy Crew Portal', { status: 'inactive', deactivated: true, scope: 'CAPTIVE' });
const categories = [{ id: 10, name: 'Crew Portals', deactivated: false, children: [] }];

function serve(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET api/v1/portal/1': () => jsonResponse([crew, legacy]),
    'GET api/v1/category/1': () => jsonResponse(categories),
    'GET api/v1/template/1': () => jsonResponse([...builtIns, ownTemplate]),
    ...extra,
  });
}

function render(user = undefined as Parameters<typeof renderScreen>[3]) {
  const utils = renderScreen(PortalsScreen, '/domain/:domain/portal-management', '/domain/1/portal-management', user);
  return { ...utils, user: userEvent.setup() };
}

async function openCreate(user: ReturnType<typeof userEvent.setup>) {
  const button = await screen.findByRole('button', { name: 'Create Portal' });
  await waitFor(() => expect(button).toBeEnabled());
  await user.click(button);
  return screen.findByRole('dialog', { name: 'Create Portal' });
}

describe('Manage Portals', () => {
  it('lists the portals with type, scope, category, status and last modified', async () => {
    serve();
    render();
    const table = await screen.findByRole('table', { name: 'Portals' });
    const row = await within(table).findByRole('row', { name: /^Crew Portal/ });
    expect(row).toHaveTextContent('Crew');
    expect(row).toHaveTextContent('Full');
    expect(row).toHaveTextContent('Crew Portals');
    expect(row).toHaveTextContent('Active');
    expect(row).toHaveTextContent('03/05/2026 14:07');
    const legacyRow = within(table).getByRole('row', { name: /^Legacy Crew Portal/ });
    expect(legacyRow).toHaveTextContent('Inactive');
    expect(legacyRow).toHaveTextContent('Captive');
    expect(within(legacyRow).getByRole('button', { name: 'Activate Legacy Crew Portal' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Deactivate Crew Portal' })).toBeInTheDocument();
  });

  it('hides the actions a user lacks', async () => {
    serve();
    setDomainPermissions(1, ['Viewers'], ['portal_read', 'portal_deactivate']);
    render(sampleUser);
    const table = await screen.findByRole('table', { name: 'Portals' });
    expect(await within(table).findByRole('button', { name: 'Deactivate Crew Portal' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Portal' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Clone/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Activate/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Move to category:/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Category' })).not.toBeInTheDocument();
  });

  it('offers the git URL and clone sources when the templates cannot be listed', async () => {
    serve({ 'GET api/v1/template/1': () => errorResponse(403, { errorMessage: 'no template_read' }) });
    setDomainPermissions(1, ['Creators'], ['portal_read', 'portal_create']);
    const { user } = render(sampleUser);
    const dialog = await openCreate(user);
    expect(within(dialog).getByRole('radio', { name: 'From Template' })).toBeDisabled();
    expect(within(dialog).getByRole('radio', { name: 'From Git URL' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Clone' })).toBeEnabled();
  });

  it('creates a portal from a template with the name rule', async () => {
    const fetch = serve({
      'POST api/v1/portal/create_template/1': () => jsonResponse(portal(9, 'New Crew'), 201),
    });
    const { user } = render();
    const dialog = await openCreate(user);
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    const name = within(dialog).getByLabelText(/^Portal name/);
    await user.type(name, '-bad');
    expect(
      within(dialog).getByText(
        'Please enter only alphanumeric characters, spaces, underscores, round brackets, full stops and/or dashes.',
      ),
    ).toBeInTheDocument();
    expect(create).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'New Crew');
    await user.click(within(dialog).getByRole('combobox', { name: 'Scope' }));
    await user.click(await screen.findByRole('option', { name: 'Microsite' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'Crew Portals' }));
    await user.click(create);
    expect(await screen.findByText('Portal created successfully')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/portal/create_template/1')).toEqual({
      name: 'New Crew',
      type: 'CREW',
      scope: 'MICROSITE',
      categoryId: 10,
      starter: 'crew',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("creates from one of the domain's templates", async () => {
    const fetch = serve({
      'POST api/v1/portal/create_template/1': () => jsonResponse(portal(9, 'From Ops'), 201),
    });
    const { user } = render();
    const dialog = await openCreate(user);
    await user.click(within(dialog).getByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'Ops base' }));
    await user.type(within(dialog).getByLabelText(/^Portal name/), 'From Ops');
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Passenger' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Portal created successfully')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/portal/create_template/1')).toEqual({
      name: 'From Ops',
      type: 'PASSENGER',
      scope: 'FULL',
      categoryId: null,
      templateId: 5,
    });
  });

  it('opens a portal made from a template on the template branch chosen', async () => {
    const fetch = serve({
      'POST api/v1/portal_branch/branches/template/1/': () =>
        jsonResponse({ allReferences: ['master', 'feature/summer'] }),
      'POST api/v1/portal/create_template/1': () => jsonResponse(portal(9, 'From Ops'), 201),
    });
    const { user } = render();
    const dialog = await openCreate(user);
    await user.click(within(dialog).getByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'Ops base' }));
    // Each template's branches are read when it is chosen (first the preselected starter's).
    await waitFor(() =>
      expect(
        fetch.mock.calls
          .filter(([url]) => String(url) === 'api/v1/portal_branch/branches/template/1/')
          .map(([, init]) => JSON.parse(String(init?.body))),
      ).toEqual([{ starter: 'crew' }, { id: 5 }]),
    );
    await user.click(await within(dialog).findByRole('combobox', { name: 'Branch' }));
    await user.click(await screen.findByRole('option', { name: 'feature/summer' }));
    await user.type(within(dialog).getByLabelText(/^Portal name/), 'From Ops');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Portal created successfully')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/portal/create_template/1')).toMatchObject({
      name: 'From Ops',
      templateId: 5,
      branch: 'feature/summer',
    });
  });

  it('creates from a git URL after loading its branches', async () => {
    let fail = true;
    const fetch = serve({
      'POST api/v1/portal_branch/branches/url/1': () =>
        fail
          ? errorResponse(400, { errorMessage: 'repository not found' })
          : jsonResponse({ allReferences: ['master', 'feature/x'] }),
      'POST api/v1/portal/create_url/1': () => jsonResponse(portal(9, 'Imported'), 201),
    });
    const { user } = render();
    const dialog = await openCreate(user);
    await user.click(within(dialog).getByRole('radio', { name: 'From Git URL' }));
    const url = within(dialog).getByLabelText(/^Git URL/);
    await user.type(url, 'https://example.com/repo');
    expect(within(dialog).getByText('This is not a valid GIT URL')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Load branches' })).toBeDisabled();
    await user.clear(url);
    await user.type(url, 'git://127.0.0.1:9418/site.git');
    await user.type(within(dialog).getByLabelText(/^Portal name/), 'Imported');
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Load branches' }));
    expect(
      await within(dialog).findByText(
        'Failed to load branches from URL git://127.0.0.1:9418/site.git: repository not found',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();

    fail = false;
    await user.type(within(dialog).getByLabelText(/^User name/), 'git');
    await user.click(within(dialog).getByRole('button', { name: 'Load branches' }));
    expect(await within(dialog).findByText('feature/x')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/portal_branch/branches/url/1')).toMatchObject({
      gitUrl: 'git://127.0.0.1:9418/site.git',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Portal created successfully')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/portal/create_url/1')).toEqual({
      portal: { name: 'Imported', type: 'CREW', scope: 'FULL', categoryId: null, url: 'git://127.0.0.1:9418/site.git' },
      userName: 'git',
      categoryID: null,
    });
  });

  it('shows the remote failure message', async () => {
    serve({
      'POST api/v1/portal_branch/branches/url/1': () => jsonResponse({ allReferences: ['master'] }),
      'POST api/v1/portal/create_url/1': () => errorResponse(502, { errorTitle: '', errorMessage: 'clone failed' }),
    });
    const { user } = render();
    const dialog = await openCreate(user);
    await user.click(within(dialog).getByRole('radio', { name: 'From Git URL' }));
    await user.type(within(dialog).getByLabelText(/^Git URL/), 'git@host:team/site.git');
    await user.type(within(dialog).getByLabelText(/^Portal name/), 'Imported');
    await user.click(within(dialog).getByRole('button', { name: 'Load branches' }));
    await within(dialog).findByText('master');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Failed to create portal from remote')).toBeInTheDocument();
    expect(screen.getByText('clone failed')).toBeInTheDocument();
  });

  it('clones a portal from its row, and reports a failure', async () => {
    let fail = true;
    const fetch = serve({
      'POST api/v1/portal/clone/1/1': () =>
        fail ? errorResponse(500, { errorMessage: 'disk full' }) : jsonResponse(portal(9, 'Crew Copy'), 201),
    });
    const { user } = render();
    const table = await screen.findByRole('table', { name: 'Portals' });
    const cloneButton = await within(table).findByRole('button', { name: 'Clone Crew Portal' });
    await waitFor(() => expect(cloneButton).toBeEnabled());
    await user.click(cloneButton);
    const dialog = await screen.findByRole('dialog', { name: 'Create Portal' });
    expect(within(dialog).getByRole('radio', { name: 'Clone' })).toBeChecked();
    expect(within(dialog).getByRole('combobox', { name: 'Portal to clone' })).toHaveTextContent('Crew Portal');
    await user.type(within(dialog).getByLabelText(/^Portal name/), 'Crew Copy');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Failed to clone portal')).toBeInTheDocument();
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Portal created successfully')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/portal/clone/1/1')).toEqual({
      name: 'Crew Copy',
      type: 'CREW',
      scope: 'FULL',
      categoryId: null,
    });
  });

  it('deactivates, activates and deletes with a required comment', async () => {
    const fetch = serve({
      'PUT api/v1/portal/deactivate/1/1': () => jsonResponse({ ...crew, status: 'inactive' }),
      'PUT api/v1/portal/activate/1/3': () => jsonResponse({ ...legacy, status: 'active' }),
      'DELETE api/v1/portal/1/3': noContent,
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Crew Portal' }));
    let dialog = await screen.findByRole('dialog', { name: 'Deactivate Portal' });
    const submit = within(dialog).getByRole('button', { name: 'Deactivate' });
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/^Comment/), 'x');
    await user.clear(within(dialog).getByLabelText(/^Comment/));
    expect(within(dialog).getByText('The field is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Comment/), 'Season over');
    await user.click(submit);
    expect(await screen.findByText('Portal Crew Portal deactivated.')).toBeInTheDocument();
    expect(queryOf(fetch, 'PUT api/v1/portal/deactivate/1/1').get('comment')).toBe('Season over');

    await user.click(await screen.findByRole('button', { name: 'Activate Legacy Crew Portal' }));
    dialog = await screen.findByRole('dialog', { name: 'Activate Portal' });
    await user.type(within(dialog).getByLabelText(/^Comment/), 'Back');
    await user.click(within(dialog).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('Portal Legacy Crew Portal activated.')).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Delete Legacy Crew Portal' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Portal' });
    await user.type(within(dialog).getByLabelText(/^Comment/), 'Gone');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Portal Legacy Crew Portal deleted.')).toBeInTheDocument();
    expect(queryOf(fetch, 'DELETE api/v1/portal/1/3').get('comment')).toBe('Gone');
  });

  it('creates, renames and deletes categories and moves portals between them', async () => {
    const fetch = serve({
      'POST api/v1/category/1': () => jsonResponse({ id: 11, name: 'Ops', deactivated: false, children: [] }, 201),
      'PUT api/v1/category/1/10': noContent,
      'DELETE api/v1/category/1/10': noContent,
      'POST api/v1/category/1/10/link': noContent,
      'DELETE api/v1/category/1/10/link': noContent,
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Create Category' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create Category' });
    await user.type(within(dialog).getByLabelText(/^Category name/), 'Ops!');
    expect(
      within(dialog).getByText('Please enter only Alphanumeric characters, spaces and/or Underscores.'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Category name/));
    await user.type(within(dialog).getByLabelText(/^Category name/), 'Ops');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Category Ops created.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/category/1')).toEqual({ name: 'Ops' });

    await user.click(await screen.findByRole('button', { name: 'Rename category Crew Portals' }));
    dialog = await screen.findByRole('dialog', { name: 'Rename Category' });
    await user.clear(within(dialog).getByLabelText(/^Category name/));
    await user.type(within(dialog).getByLabelText(/^Category name/), 'Crew');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Category renamed to Crew.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'PUT api/v1/category/1/10')).toEqual({ name: 'Crew' });

    await user.click(await screen.findByRole('button', { name: 'Move to category: Legacy Crew Portal' }));
    dialog = await screen.findByRole('dialog', { name: 'Move to category' });
    expect(within(dialog).getByRole('button', { name: 'Move' })).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'Crew Portals' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Legacy Crew Portal moved to Crew Portals.')).toBeInTheDocument();
    expect(queryOf(fetch, 'POST api/v1/category/1/10/link').get('portalIds')).toBe('3');

    await user.click(await screen.findByRole('button', { name: 'Move to category: Crew Portal' }));
    dialog = await screen.findByRole('dialog', { name: 'Move to category' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'No category' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Crew Portal removed from its category.')).toBeInTheDocument();
    expect(queryOf(fetch, 'DELETE api/v1/category/1/10/link').get('portalIds')).toBe('1');

    await user.click(await screen.findByRole('button', { name: 'Delete category Crew Portals' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Category Crew Portals deleted.')).toBeInTheDocument();
    expect(called(fetch, 'DELETE api/v1/category/1/10')).toBe(true);
  });
});
