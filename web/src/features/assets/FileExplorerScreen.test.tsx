import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { useToastStore } from '../../core/toastService';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { bodyOf, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { COMPACT_TOOLBAR } from './ExplorerToolbar';
import '../editors/register'; // the editor the explorer opens a file in comes through the registry
import FileExplorerScreen from './FileExplorerScreen';
import { fakeFile, fileAsset, folderAsset, sizeLimits } from './fixtures';
import { ASSET_MESSAGES, REFERENCE_TOAST_MS } from './messages';

// Ace does not run in jsdom: the source editor's field is a textarea here.
vi.mock('../editors/AceField', () => import('../../test/aceTextarea'));

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  window.localStorage.clear();
});

const pattern = '/domain/:domain/portal/:portal/branch/:branch/:language/file-explorer';
const root = folderAsset('/', {
  children: [
    folderAsset('/images', { hasChildren: false }),
    fileAsset('/logo.png'),
    fileAsset('/index.html', { type: 'text/html', width: 0, height: 0, dimensions: '' }),
  ],
});
const images = folderAsset('/images', { children: [fileAsset('/images/a.png'), fileAsset('/images/b.png')] });

function routes(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET api/v1/assets/1/2/src/': () => jsonResponse(root),
    'GET api/v1/assets/1/2/src/images': () => jsonResponse(images),
    'GET api/v1/assets/assetSizeLimits': () => jsonResponse(sizeLimits),
    'POST api/v1/thumbnail/1/2/token': () => jsonResponse({ token: 'read-token', expiresIn: 600 }),
    ...extra,
  });
}

function render(path = '', user?: typeof sampleUser, permissions: string[] = []) {
  useSelectionStore.setState({
    portal: { id: 2, name: 'Crew Portal' },
    branch: 'master',
    permissions,
    portalInfo: { status: 'active' } as never,
  });
  const utils = renderScreen(
    FileExplorerScreen,
    pattern,
    `/domain/1/portal/2/branch/master/en_GB/file-explorer${path}`,
    user,
  );
  return { ...utils, user: userEvent.setup() };
}

describe('File Explorer', () => {
  it('marks the files other users are changing: uncommitted changes, or editing now', async () => {
    const grace = { id: 9, userName: 'grace', firstName: 'Grace', lastName: 'Hopper' };
    const bob = { id: 21, userName: 'bob', firstName: 'Bob', lastName: 'Builder' };
    routes({
      'GET api/v1/portal/1/2/wsChanges/master': () =>
        jsonResponse([
          {
            user: grace,
            aheadCount: 0,
            behindCount: 0,
            hasChanges: true,
            branch: 'master',
            domainName: 'Ops',
            portalName: 'Crew Portal',
            changes: { 'index.html': 'MODIFY' },
          },
        ]),
      'GET api/v1/presence/1/2': () =>
        jsonResponse([
          { user: bob, path: 'logo.png', state: 'editing', since: '2024-01-01T00:00:00Z' },
          { user: grace, path: 'images', state: 'viewing', since: '2024-01-01T00:00:00Z' },
        ]),
    });
    render();
    const grid = await screen.findByRole('list', { name: 'Assets' });
    expect(
      await within(within(grid).getByRole('listitem', { name: 'index.html' })).findByRole('img', {
        name: 'Other users are changing this file: Grace Hopper (uncommitted changes)',
      }),
    ).toBeInTheDocument();
    expect(
      await within(within(grid).getByRole('listitem', { name: 'logo.png' })).findByRole('img', {
        name: 'Other users are changing this file: Bob Builder (editing)',
      }),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId('others-mark')).toHaveLength(2);
  });

  it('lists the root folder and navigates the tree; the grid selection is cleared', async () => {
    routes();
    const { user, router } = render();
    const tree = await screen.findByRole('tree', { name: 'Folders' });
    expect(tree.querySelector('[role="treeitem"][data-name="Portal root"]')).toHaveAttribute('aria-selected', 'true');
    const grid = await screen.findByRole('list', { name: 'Assets' });
    expect(within(grid).getByRole('listitem', { name: 'logo.png' })).toBeInTheDocument();
    // Thumbnails carry the read token, never the login token.
    await waitFor(() =>
      expect(within(grid).getByRole('listitem', { name: 'logo.png' }).querySelector('img')).toHaveAttribute(
        'src',
        'api/v1/thumbnail/1/2/master/thumbnail/logo.png?height=200&t=read-token',
      ),
    );
    await user.click(within(grid).getByRole('checkbox', { name: 'Select logo.png' }));
    expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled();

    await user.click(await within(tree).findByRole('button', { name: 'images' }));
    expect(await screen.findByRole('listitem', { name: 'a.png' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?path=%2Fimages');
    expect(tree.querySelector('[role="treeitem"][data-name="images"]')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Download' })).toBeDisabled();

    // List view: the spec's columns with sizes and dates formatted.
    await user.click(screen.getByRole('button', { name: 'List view' }));
    const table = screen.getByRole('table', { name: 'Assets' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Created', 'Type', 'Dimensions', 'Size', 'Action']);
    expect(within(table).getAllByText('2.00 KB')).toHaveLength(2);
    await user.click(within(table).getByRole('button', { name: 'Size' }));
    expect(JSON.parse(window.localStorage.getItem('portalwright.asset-manager.sort') ?? '{}')).toEqual({
      column: 'size',
      direction: 'asc',
    });
  });

  it('shows the empty-folder message with the allowed extensions', async () => {
    routes({ 'GET api/v1/assets/1/2/src/empty': () => jsonResponse(folderAsset('/empty', { children: [] })) });
    render('?path=/empty');
    expect(await screen.findByText(ASSET_MESSAGES.emptyFolder)).toBeInTheDocument();
    expect(await screen.findByText(/Allowed file types: png, jpg/)).toBeInTheDocument();
  });

  it('validates the add-folder name and shows the server error', async () => {
    const fetch = routes({
      'POST api/v1/assets/1/2/folder/create': () =>
        errorResponse(409, { errorTitle: 'Conflict', errorMessage: 'The folder already exists.' }),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Add Folder' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Folder' });
    expect(dialog).toHaveStyle({ width: '400px', minHeight: '250px' }); // spec 2 §9
    const field = within(dialog).getByLabelText(/^Folder name/);
    const submit = within(dialog).getByRole('button', { name: 'Submit' });
    await user.type(field, 'x');
    await user.clear(field);
    expect(within(dialog).getByText('A folder name is required')).toBeInTheDocument();
    await user.type(field, 'my folder');
    expect(within(dialog).getByText(ASSET_MESSAGES.folderNoSpaces)).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'images');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The folder already exists.');
    expect(bodyOf(fetch, 'POST api/v1/assets/1/2/folder/create')).toEqual(['/images']);
  });

  it('keeps Rename disabled while the name is unchanged and says a new name is required', async () => {
    routes();
    const { user } = render('?path=/images');
    await user.click(await screen.findByRole('button', { name: 'Rename Folder' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename Folder' });
    const field = within(dialog).getByLabelText(/^New folder name/);
    expect(field).toHaveValue('images');
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled();
    await user.clear(field);
    expect(within(dialog).getByText('A new folder name is required')).toBeInTheDocument();
  });

  it('renames the one selected file: name rule, allowed extension, then the call', async () => {
    const fetch = routes({
      'PUT api/v1/assets/1/2/file/rename': () => jsonResponse(fileAsset('/images/c.png')),
    });
    const { user } = render('?path=/images');
    const rename = await screen.findByRole('button', { name: 'Rename' });
    expect(rename).toBeDisabled(); // one file must be selected
    await user.click(await screen.findByRole('checkbox', { name: 'Select a.png' }));
    await waitFor(() => expect(rename).toBeEnabled());
    await user.click(rename);
    const dialog = screen.getByRole('dialog', { name: 'Rename File' });
    const field = within(dialog).getByLabelText(/^New file name/);
    const submit = within(dialog).getByRole('button', { name: 'Submit' });
    expect(field).toHaveValue('a.png');
    expect(submit).toBeDisabled();
    await user.clear(field);
    expect(within(dialog).getByText(ASSET_MESSAGES.fileNameRequired)).toBeInTheDocument();
    await user.type(field, 'c%.png');
    expect(within(dialog).getByText(ASSET_MESSAGES.fileNameRule)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'c.exe');
    expect(within(dialog).getByText(ASSET_MESSAGES.extensionNotAllowed)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'c.png');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await waitFor(() =>
      expect(bodyOf(fetch, 'PUT api/v1/assets/1/2/file/rename')).toEqual({
        oldPath: '/images/a.png',
        newPath: '/images/c.png',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rename File' })).not.toBeInTheDocument());
  });

  it('lists the files that still use an asset the delete refused, for 15 s', async () => {
    const fetch = routes({
      'POST api/v1/assets/1/2/delete': () =>
        jsonResponse([
          {
            file: '/logo.png',
            result: false,
            error: {
              error: JSON.stringify({
                errorMessage: 'The asset is used by other files.',
                data: ['pages/home.html', 'content/x.json'],
              }),
            },
          },
        ]),
    });
    const { user } = render();
    await user.click(await screen.findByRole('checkbox', { name: 'Select logo.png' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Assets' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      type: 'DANGER',
      title: 'Error deleting asset(s)',
      timeOut: REFERENCE_TOAST_MS,
    });
    expect(useToastStore.getState().toasts[0].message).toContain('pages/home.html, content/x.json');
    expect(bodyOf(fetch, 'POST api/v1/assets/1/2/delete')).toEqual(['/logo.png']);
  });

  it('refuses to delete a folder that still has children', async () => {
    routes({
      'POST api/v1/assets/1/2/delete': () =>
        jsonResponse([
          {
            file: '/images',
            result: false,
            error: { error: JSON.stringify({ errorMessage: 'Folder still has children.' }) },
          },
        ]),
    });
    const { user } = render('?path=/images');
    await user.click(await screen.findByRole('button', { name: 'Delete Folder' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Folder' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      title: "Error deleting asset folder 'images'",
      message: 'Folder still has children.',
    });
  });

  it('hides every action the user may not take (spec 2 §6 gates)', async () => {
    routes();
    const reader = { ...sampleUser, admin: false };
    render('?path=/images', reader, ['asset:r']);
    expect(await screen.findByRole('listitem', { name: 'a.png' })).toBeInTheDocument();
    for (const name of [
      'Add Folder',
      'Rename Folder',
      'Delete Folder',
      'Upload',
      'Download',
      'Delete',
      'Select All',
      'Deselect All',
    ])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('offers create actions with asset_create only, and folder deletion only on an active portal', async () => {
    routes();
    const writer = { ...sampleUser, admin: false };
    render('?path=/images', writer, ['asset:r', 'asset_create', 'asset_delete']);
    expect(await screen.findByRole('button', { name: 'Add Folder' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Folder' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename Folder' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Select All' })).not.toBeInTheDocument();
    useSelectionStore.setState({ portalInfo: { status: 'inactive' } as never });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Folder' })).not.toBeInTheDocument());
  });

  it('on a phone keeps Upload a button and puts the other actions behind More actions', async () => {
    // A 390 px screen: only the compact toolbar's query matches.
    const matchMedia = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query === COMPACT_TOOLBAR,
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    onTestFinished(() => matchMedia.mockRestore());
    routes();
    const { user } = render('?path=/images');
    await screen.findByRole('listitem', { name: 'a.png' });
    expect(screen.getByRole('button', { name: 'Upload' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Folder' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    const menu = screen.getByRole('menu', { name: 'More actions' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Add Folder',
      'Rename Folder',
      'Delete Folder',
      'Download',
      'Rename',
      'Delete',
      'Select All',
      'Deselect All',
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'Download' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(within(menu).getByRole('menuitem', { name: 'Add Folder' }));
    expect(await screen.findByRole('dialog', { name: 'Add Folder' })).toBeInTheDocument();
  });

  it('opens the upload dialog with the files dropped onto the manager', async () => {
    routes();
    render('?path=/images');
    await screen.findByRole('listitem', { name: 'a.png' });
    fireEvent.drop(screen.getByTestId('asset-drop-zone'), {
      dataTransfer: { files: [fakeFile('a.png'), fakeFile('new.png')] },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Upload Files' });
    expect(within(dialog).getByRole('row', { name: /a\.png.*Yes/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('row', { name: /new\.png.*No/ })).toBeInTheDocument();
    expect(within(dialog).getByText(ASSET_MESSAGES.alreadyExist)).toBeInTheDocument();
  });

  it('says so without asset:r', async () => {
    routes();
    render('', { ...sampleUser, admin: false }, []);
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have the right permission');
  });

  it('opens a text file in the source editor and a JSON file without a schema nowhere', async () => {
    const withFiles = folderAsset('/', {
      children: [
        fileAsset('/site.css', {
          type: 'text/css',
          width: 0,
          height: 0,
          dimensions: '',
          canEdit: { editable: true, toolTipMessage: '' },
        }),
        fileAsset('/data.json', {
          type: 'application/json',
          width: 0,
          height: 0,
          dimensions: '',
          canEdit: { editable: false, toolTipMessage: 'Can not edit, no Schema file' },
        }),
      ],
    });
    routes({
      'GET api/v1/assets/1/2/src/': () => jsonResponse(withFiles),
      'GET api/v1/assets/1/2/src/site.css': () => new Response('body { color: red; }', { headers: { ETag: '"v1"' } }),
    });
    const { user } = render('', { ...sampleUser, admin: false }, ['code_read', 'code_write', 'asset_read']);
    expect(await screen.findByRole('button', { name: 'JSON Edit data.json' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Edit site.css' }));
    expect(await screen.findByText('Editing: /site.css')).toBeInTheDocument();
    expect(await screen.findByDisplayValue('body { color: red; }')).toBeInTheDocument();
    // code:w without asset_create (the save call's permission): read only.
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
