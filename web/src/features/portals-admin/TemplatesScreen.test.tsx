import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../core/selectionStore';
import { errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { bodyOf } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import TemplatesScreen from './TemplatesScreen';
import { noContent } from '../../test/helpers';
import { builtIns, ownTemplate, portal } from './fixtures';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

function serve(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET api/v1/template/1': () => jsonResponse([...builtIns, ownTemplate]),
    'GET api/v1/portal/1': () => jsonResponse([portal(1, 'Crew Portal')]),
    ...extra,
  });
}

function render(user = undefined as Parameters<typeof renderScreen>[3]) {
  const utils = renderScreen(
    TemplatesScreen,
    '/domain/:domain/template-management',
    '/domain/1/template-management',
    user,
  );
  return { ...utils, user: userEvent.setup() };
}

describe('Manage Templates', () => {
  it('lists templates with built-ins marked and no actions on them', async () => {
    serve();
    render();
    const table = await screen.findByRole('table', { name: 'Templates' });
    const starter = await within(table).findByRole('row', { name: /Crew starter/ });
    expect(starter).toHaveTextContent('Built-in');
    expect(within(starter).queryByRole('button')).not.toBeInTheDocument();
    const own = within(table).getByRole('row', { name: /Ops base/ });
    expect(own).toHaveTextContent('Domain template');
    expect(within(own).getByRole('button', { name: 'Rename template Ops base' })).toBeInTheDocument();
  });

  it('shows the permission message without template read, hides actions without the others', async () => {
    serve();
    setDomainPermissions(1, [], ['portal_read']);
    const first = render(sampleUser);
    expect(screen.getByRole('alert')).toHaveTextContent('You do not have the right permission');
    first.unmount();
    setDomainPermissions(1, [], ['template_read']);
    render(sampleUser);
    await screen.findByRole('table', { name: 'Templates' });
    expect(screen.queryByRole('button', { name: 'Create Template' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Rename template/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete template/ })).not.toBeInTheDocument();
  });

  it('creates a template from a starter and from a portal; reports a failure', async () => {
    let fail = true;
    const fetch = serve({
      'POST api/v1/template/accounts/1/templates': () =>
        fail ? errorResponse(409, { errorMessage: 'exists' }) : jsonResponse({ ...ownTemplate, id: 6 }, 201),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Create Template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Template' });
    const name = within(dialog).getByLabelText(/^Template name/);
    await user.type(name, ' x');
    expect(
      within(dialog).getByText(
        'Please enter only alphanumeric characters, spaces, underscores, round brackets, full stops and/or dashes.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Night ops');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText("Could not create template 'Night ops'")).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/template/accounts/1/templates')).toEqual({
      templateName: 'Night ops',
      starter: 'crew',
    });
    fail = false;
    fetch.mockClear();
    await user.click(within(dialog).getByRole('combobox', { name: 'Source' }));
    await user.click(await screen.findByRole('option', { name: 'Crew Portal' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Template Night ops created.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/template/accounts/1/templates')).toEqual({
      templateName: 'Night ops',
      portalId: 1,
    });
  });

  it('renames and deletes a template, with the delete failure message', async () => {
    let failDelete = true;
    const fetch = serve({
      'PUT api/v1/template/accounts/1/templates': noContent,
      'DELETE api/v1/template/accounts/1/templates/5': () =>
        failDelete ? errorResponse(500, { errorMessage: 'busy' }) : noContent(),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Rename template Ops base' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Template' });
    await user.clear(within(dialog).getByLabelText(/^Template name/));
    await user.type(within(dialog).getByLabelText(/^Template name/), 'Ops v2');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Template renamed to Ops v2.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'PUT api/v1/template/accounts/1/templates')).toEqual({ id: 5, templateName: 'Ops v2' });

    await user.click(await screen.findByRole('button', { name: 'Delete template Ops base' }));
    await screen.findByText(/Delete the template Ops base\?/);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText("Could not delete template 'Ops base'")).toBeInTheDocument();
    failDelete = false;
    await user.click(await screen.findByRole('button', { name: 'Delete template Ops base' }));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Template Ops base deleted.')).toBeInTheDocument();
  });
});
