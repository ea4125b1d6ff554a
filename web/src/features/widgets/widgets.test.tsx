import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { fileAsset, folderAsset } from '../assets/fixtures';
import { sitemap } from './fixtures';
import { AssetSelector, ImagePicker, InternalLinkPicker, SingleSelectList } from './index';

beforeEach(() => {
  signIn();
  useSelectionStore.setState({ branch: 'master' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const options = Array.from({ length: 23 }, (_, i) => ({ value: `v${i + 1}`, label: `Item ${i + 1}` }));

function List(props: { searchable?: boolean; paginated?: boolean; onChange?: (v: string) => void }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <SingleSelectList
      label="Items"
      options={options}
      value={value}
      onChange={(v) => {
        setValue(v);
        props.onChange?.(v);
      }}
      searchable={props.searchable}
      paginated={props.paginated}
    />
  );
}

describe('SingleSelectList', () => {
  it('pages by 10 by default with the sizes 5, 10, 25, 100', async () => {
    renderWithProviders(<List paginated />);
    const group = screen.getByRole('radiogroup', { name: 'Items' });
    expect(within(group).getAllByRole('radio')).toHaveLength(10);
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox'));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['5', '10', '25', '100']);
    await userEvent.click(screen.getByRole('option', { name: '25' }));
    expect(within(group).getAllByRole('radio')).toHaveLength(23);
  });

  it('searches and selects one item', async () => {
    const onChange = vi.fn();
    renderWithProviders(<List searchable onChange={onChange} />);
    expect(screen.getAllByRole('radio')).toHaveLength(23);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'Item 2');
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual([
      'v2',
      'v20',
      'v21',
      'v22',
      'v23',
    ]);
    await userEvent.click(screen.getByRole('radio', { name: 'Item 21' }));
    expect(onChange).toHaveBeenCalledWith('v21');
    expect(screen.getByRole('radio', { name: 'Item 21' })).toBeChecked();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'zzz');
    expect(screen.getByText('No Items found')).toBeInTheDocument();
  });
});

describe('ImagePicker and AssetSelector', () => {
  it('shows the missing-image placeholder for an empty required value and picks an image', async () => {
    mockFetch({
      'GET api/v1/assets/1/2/src/': () =>
        jsonResponse(
          folderAsset('/', {
            children: [fileAsset('/logo.png'), fileAsset('/doc.pdf', { type: 'application/pdf' })],
          }),
        ),
      'POST api/v1/thumbnail/1/2/token': () => jsonResponse({ token: 'tok', expiresIn: 600 }),
      'GET api/v1/assets/1/2/src/info/logo.png': () => jsonResponse({ width: 640, height: 480 }),
    });
    function Host() {
      const [value, setValue] = useState('');
      return <ImagePicker domainId={1} portalId={2} label="Logo" required value={value} onChange={setValue} />;
    }
    renderWithProviders(<Host />);
    const group = screen.getByRole('group', { name: 'Logo' });
    expect(within(group).getByRole('img', { name: 'Missing image' })).toBeInTheDocument();
    expect(within(group).getByText('This field is required')).toBeInTheDocument();

    await userEvent.click(within(group).getByRole('button', { name: 'Select Image' }));
    const picker = await screen.findByRole('dialog', { name: 'Select Image' });
    const grid = await within(picker).findByRole('list', { name: 'Assets' });
    // Images only.
    expect(
      within(grid)
        .getAllByRole('listitem')
        .map((i) => i.getAttribute('aria-label')),
    ).toEqual(['logo.png']);
    await userEvent.click(within(grid).getByRole('checkbox', { name: 'Select logo.png' }));
    await userEvent.click(within(picker).getByRole('button', { name: 'Select Asset' }));

    expect(await within(group).findByRole('img', { name: 'logo.png' })).toHaveAttribute(
      'src',
      expect.stringContaining('thumbnail/1/2/master/thumbnail/logo.png?width=240&height=0&t=tok'),
    );
    expect(within(group).getByLabelText('Asset path')).toHaveTextContent('logo.png');
    expect(await within(group).findByLabelText('Dimensions')).toHaveTextContent('640 x 480');
    expect(within(group).queryByText('This field is required')).not.toBeInTheDocument();
  });

  it('AssetSelector shows a non-image asset by its path with a file icon', () => {
    renderWithProviders(
      <AssetSelector
        domainId={1}
        portalId={2}
        label="Manual"
        value="docs/manual.pdf"
        onChange={vi.fn()}
        variant="pdf"
      />,
    );
    const group = screen.getByRole('group', { name: 'Manual' });
    expect(within(group).getByLabelText('Asset path')).toHaveTextContent('docs/manual.pdf');
    expect(within(group).queryByRole('img', { name: 'Missing image' })).not.toBeInTheDocument();
    expect(within(group).getByRole('button', { name: 'Select PDF Document' })).toBeInTheDocument();
  });
});

describe('InternalLinkPicker', () => {
  it('produces the internal link with the page parameters and says when it is complete', async () => {
    mockFetch({ 'GET api/v1/page/1/2/sitemap': () => jsonResponse(sitemap) });
    const onChange = vi.fn();
    renderWithProviders(<InternalLinkPicker domainId={1} portalId={2} value="" onChange={onChange} />);
    await userEvent.click(await screen.findByRole('combobox', { name: 'Page' }));
    await userEvent.click(screen.getByRole('option', { name: 'Home' }));
    expect(onChange).toHaveBeenLastCalledWith('#/home', false);
    await userEvent.type(screen.getByRole('textbox', { name: 'gate' }), '7');
    expect(onChange).toHaveBeenLastCalledWith('#/home?gate=7', false);
    await userEvent.type(screen.getByRole('textbox', { name: 'airport' }), 'EGLL');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('#/home?gate=7&airport=EGLL', true));
  });
});
