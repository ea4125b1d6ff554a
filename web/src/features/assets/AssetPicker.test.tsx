import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { fileAsset, folderAsset } from './fixtures';
import { AssetPicker } from './index';
import { pickerShows } from './pickerFilters';

beforeEach(() => {
  signIn();
  useSelectionStore.setState({ branch: 'master' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const root = folderAsset('/', {
  children: [
    folderAsset('/images', { hasChildren: true }),
    fileAsset('/.hidden.png'),
    fileAsset('/logo.png'),
    fileAsset('/photo.jpg', { dimensions: '', width: 0, height: 0 }),
    fileAsset('/data.json', { type: 'application/json' }),
    fileAsset('/doc.pdf', { type: 'application/pdf' }),
  ],
});

function routes() {
  return mockFetch({
    'GET api/v1/assets/1/2/src/': () => jsonResponse(root),
    'GET api/v1/assets/1/2/src/images': () =>
      jsonResponse(folderAsset('/images', { children: [folderAsset('/images/icons'), fileAsset('/images/sea.png')] })),
    'GET api/v1/assets/1/2/src/info/photo.jpg': () => jsonResponse({ width: 1024, height: 768 }),
    'POST api/v1/thumbnail/1/2/token': () => jsonResponse({ token: 'tok', expiresIn: 600 }),
  });
}

describe('AssetPicker', () => {
  it('offers the images only, shows the dimensions, answers the selection', async () => {
    routes();
    const onSelect = vi.fn();
    const onClose = vi.fn();
    renderWithProviders(<AssetPicker domain={1} portal={2} variant="image" onSelect={onSelect} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Select Image' });
    const grid = await within(dialog).findByRole('list', { name: 'Assets' });
    expect(
      within(grid)
        .getAllByRole('listitem')
        .map((i) => i.getAttribute('aria-label')),
    ).toEqual(['logo.png', 'photo.jpg']);
    // The tree still shows the folders.
    await waitFor(() => expect(dialog.querySelector('[role="treeitem"][data-name="images"]')).toBeInTheDocument());
    const select = within(dialog).getByRole('button', { name: 'Select Asset' });
    expect(select).toBeDisabled();

    const user = userEvent.setup();
    await user.click(within(grid).getByRole('checkbox', { name: 'Select logo.png' }));
    expect(within(dialog).getByLabelText('Dimensions')).toHaveTextContent('logo.png: 640 x 480');
    // Single selection: another image replaces it; its size comes from the info call.
    await user.click(within(grid).getByRole('checkbox', { name: 'Select photo.jpg' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Dimensions')).toHaveTextContent('photo.jpg: 1024 x 768'));
    await user.click(select);
    expect(onSelect).toHaveBeenCalledWith([expect.objectContaining({ path: '/photo.jpg' })]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('selects several in multiple mode', async () => {
    routes();
    const onSelect = vi.fn();
    renderWithProviders(
      <AssetPicker domain={1} portal={2} variant="any" multiple onSelect={onSelect} onClose={vi.fn()} />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select logo.png' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select doc.pdf' }));
    await user.click(screen.getByRole('button', { name: 'Select Asset' }));
    expect(onSelect.mock.calls[0][0].map((a: { path: string }) => a.path)).toEqual(['/logo.png', '/doc.pdf']);
  });

  it('moves between the folders with the arrows; Right and Left open and close; Enter opens a folder', async () => {
    routes();
    renderWithProviders(<AssetPicker domain={1} portal={2} variant="image" onSelect={vi.fn()} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Select Image' });
    const tree = within(dialog).getByRole('tree', { name: 'Folders' });
    const folder = (name: string) => within(tree).getByRole('button', { name });
    const item = (name: string) => tree.querySelector(`[role="treeitem"][data-name="${name}"]`);
    await waitFor(() => expect(item('images')).toBeInTheDocument());
    const user = userEvent.setup();
    folder('Portal root').focus();

    await user.keyboard('{ArrowDown}');
    expect(folder('images')).toHaveFocus();
    // Right opens the folder (its subfolders show once they arrived), Right again moves into it.
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(item('icons')).toBeInTheDocument());
    expect(item('images')).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowRight}');
    expect(folder('icons')).toHaveFocus();
    // Left goes to the parent; Left again closes it; Up, Home and End move.
    await user.keyboard('{ArrowLeft}');
    expect(folder('images')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(item('icons')).not.toBeInTheDocument());
    await user.keyboard('{ArrowUp}');
    expect(folder('Portal root')).toHaveFocus();
    await user.keyboard('{End}');
    expect(folder('images')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(folder('Portal root')).toHaveFocus();

    // Enter on a folder opens it in the grid.
    await user.keyboard('{ArrowDown}{Enter}');
    const grid = await within(dialog).findByRole('list', { name: 'Assets' });
    await waitFor(() => expect(within(grid).getByRole('listitem', { name: 'sea.png' })).toBeInTheDocument());
  });

  it('hides folders, dot-files and excluded extensions', () => {
    expect(pickerShows('any', folderAsset('/x'))).toBe(false);
    expect(pickerShows('any', fileAsset('/.env'))).toBe(false);
    expect(pickerShows('any', fileAsset('/a.json.schema'))).toBe(false);
    expect(pickerShows('pdf', fileAsset('/a.pdf'))).toBe(true);
    expect(pickerShows('pdf', fileAsset('/a.png'))).toBe(false);
    expect(pickerShows('word', fileAsset('/a.docx'))).toBe(true);
    expect(pickerShows('image', fileAsset('/a.svg'))).toBe(false);
  });
});
