import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, setDomainPermissions, useSelectionStore } from '../../core/selectionStore';
import { errorResponse, jsonResponse, mockFetch, sampleUser, textResponse } from '../../test/helpers';
import { bodyOf } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import BranchesScreen from './BranchesScreen';
import { noContent, queryOf } from '../../test/helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

function serve(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET api/v1/portal/1/2/branches': () => jsonResponse(['master', 'feature/a', 'release']),
    'GET api/v1/portal_branch/branches/active/1/2': () => textResponse('master'),
    ...extra,
  });
}

const pattern = '/domain/:domain/portal/:portal/branch/:branch/:language/branches';

function render(user = undefined as Parameters<typeof renderScreen>[3]) {
  const utils = renderScreen(BranchesScreen, pattern, '/domain/1/portal/2/branch/feature:a/en_GB/branches', user);
  return { ...utils, user: userEvent.setup() };
}

describe('Branches', () => {
  it('marks the active and current branch; the active branch cannot be deleted', async () => {
    serve();
    render();
    const table = await screen.findByRole('table', { name: 'Branches' });
    const master = await within(table).findByRole('row', { name: /master/ });
    expect(master).toHaveTextContent('Active');
    const feature = within(table).getByRole('row', { name: /feature\/a/ });
    expect(feature).toHaveTextContent('Current');
    await waitFor(() => expect(within(feature).getByRole('button', { name: 'Delete branch feature/a' })).toBeEnabled());
    expect(within(master).getByRole('button', { name: 'Delete branch master' })).toBeDisabled();
  });

  it('hides the actions without branch permissions', async () => {
    serve();
    setDomainPermissions(1, [], ['branch_read']);
    render(sampleUser);
    await screen.findByRole('table', { name: 'Branches' });
    expect(screen.queryByRole('button', { name: 'Create Branch' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Merge Branches' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete branch/ })).not.toBeInTheDocument();
  });

  it('creates a branch with the branch rule, from the current branch', async () => {
    const fetch = serve({ 'POST api/v1/portal/1/2/branches': () => jsonResponse({ name: 'fix/one' }, 201) });
    const { user } = render();
    const create = await screen.findByRole('button', { name: 'Create Branch' });
    await waitFor(() => expect(create).toBeEnabled());
    await user.click(create);
    const dialog = await screen.findByRole('dialog', { name: 'Create Branch' });
    expect(within(dialog).getByRole('combobox', { name: 'From branch' })).toHaveTextContent('feature/a');
    const name = within(dialog).getByLabelText(/^Branch name/);
    for (const bad of ['bad..name', '-x', 'a//b', 'x.lock', 'end/']) {
      await user.clear(name);
      await user.type(name, bad);
      expect(
        within(dialog).getByText(
          'Please enter only Alphanumeric characters, underscore (_), dash (-), dot(.) and/or single forward slash (/).',
        ),
      ).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
    }
    await user.clear(name);
    await user.type(name, 'release');
    expect(within(dialog).getByText('The branch release already exists.')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'fix/one');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Branch fix/one created from feature/a.')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST api/v1/portal/1/2/branches')).toEqual({ name: 'fix/one', from: 'feature/a' });
  });

  it('merges two branches and shows a merge conflict', async () => {
    let conflict = true;
    const fetch = serve({
      'PUT api/v1/portal/1/2/branches': () =>
        conflict
          ? errorResponse(409, {
              errorCode: 'PORTAL_MERGE_ERROR',
              errorMessage: 'The branches could not be merged: they change the same lines. Nothing was changed.',
            })
          : noContent(),
    });
    const { user } = render();
    const merge = await screen.findByRole('button', { name: 'Merge Branches' });
    await waitFor(() => expect(merge).toBeEnabled());
    await user.click(merge);
    const dialog = await screen.findByRole('dialog', { name: 'Merge Branches' });
    const submit = within(dialog).getByRole('button', { name: 'Merge' });
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Source branch' }));
    await user.click(await screen.findByRole('option', { name: 'feature/a' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Target branch' }));
    await user.click(await screen.findByRole('option', { name: 'feature/a' }));
    expect(within(dialog).getByText('Choose two different branches.')).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Target branch' }));
    await user.click(await screen.findByRole('option', { name: 'master' }));
    await user.click(submit);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'they change the same lines. Nothing was changed.',
    );
    expect(bodyOf(fetch, 'PUT api/v1/portal/1/2/branches')).toEqual({ source: 'feature/a', target: 'master' });
    conflict = false;
    await user.click(submit);
    expect(await screen.findByText('Branch feature/a merged into master.')).toBeInTheDocument();
  });

  it('deletes a branch after the prompt', async () => {
    const fetch = serve({ 'DELETE api/v1/portal/1/2/branches': noContent });
    const { user } = render();
    const button = await screen.findByRole('button', { name: 'Delete branch release' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await screen.findByText(/Delete the branch release\?/);
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Branch release deleted.')).toBeInTheDocument();
    expect(queryOf(fetch, 'DELETE api/v1/portal/1/2/branches').get('branch')).toBe('release');
  });

  it("shows the server's reason when a branch with a workspace's unpushed work is refused", async () => {
    serve({
      'DELETE api/v1/portal/1/2/branches': () =>
        errorResponse(409, {
          errorCode: 'BRANCH_CHECKED_OUT',
          errorMessage: 'The branch release cannot be deleted: a workspace has it checked out with unpushed work.',
        }),
    });
    const { user } = render();
    const button = await screen.findByRole('button', { name: 'Delete branch release' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText(
        'The branch release cannot be deleted: a workspace has it checked out with unpushed work.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /release/ })).toBeInTheDocument();
  });

  it('moves to the active branch after deleting the branch the workspace is on', async () => {
    serve({ 'DELETE api/v1/portal/1/2/branches': noContent });
    const { user, router } = render();
    const button = await screen.findByRole('button', { name: 'Delete branch feature/a' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/domain/1/portal/2/branch/master/en_GB/branches'));
  });
});
