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
    folderAsset('/images'),
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
