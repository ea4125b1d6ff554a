/** The File Explorer's readiness marks and its arrival at a file's field or line (issue 29 item 2). */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { jsonResponse, mockFetch, readinessAnswer } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import '../editors/register'; // the editor the explorer opens a file in comes through the registry
import FileExplorerScreen from './FileExplorerScreen';
import { fileAsset, folderAsset, sizeLimits } from './fixtures';
import { ASSET_VIEW_KEY } from './useAssetSort';

vi.mock('../editors/AceField', () => import('../../test/aceTextarea'));

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  window.localStorage.clear();
});

const json = {
  type: 'application/json',
  width: 0,
  height: 0,
  dimensions: '',
  canEdit: { editable: true, toolTipMessage: '' },
};
const root = folderAsset('/', {
  children: [
    folderAsset('/content', { hasChildren: true }),
    folderAsset('/images', { hasChildren: false }),
    fileAsset('/index.html', { ...json, type: 'text/html' }),
    fileAsset('/logo.png'),
  ],
});
const findings = [
  { rule: 'page.img-alt', path: 'index.html', line: 4, severity: 'warning', message: 'No alt' },
  { rule: 'asset.missing', path: 'index.html', line: 9, message: 'img/x.png does not exist' },
  { rule: 'asset.missing', path: 'index.html', line: 12, message: 'img/y.png does not exist' },
  { rule: 'content.schema', path: 'content/menu.json', pointer: '/title', message: 'Title must start upper case' },
  { rule: 'whitelist.not-allowed', path: 'logo.png', severity: 'warning', message: 'Only a warning' },
];

function render(search = '', view: 'grid' | 'list' = 'grid') {
  window.localStorage.setItem(ASSET_VIEW_KEY, view);
  mockFetch({
    'GET api/v1/assets/1/2/src/': () => jsonResponse(root),
    'GET api/v1/assets/1/2/src/images': () => jsonResponse(folderAsset('/images', { children: [] })),
    'GET api/v1/assets/assetSizeLimits': () => jsonResponse(sizeLimits),
    'POST api/v1/thumbnail/1/2/token': () => jsonResponse({ token: 't', expiresIn: 600 }),
    'GET api/v1/readiness/1/2': () => readinessAnswer(findings),
    'GET api/v1/assets/1/2/src/content/menu.json': () =>
      new Response('{"title": "menu", "note": "x"}', { headers: { ETag: '"v1"', 'Content-Type': 'application/json' } }),
    'GET api/v1/assets/1/2/src/content/menu.json.schema': () =>
      jsonResponse({
        type: 'object',
        properties: { title: { type: 'string', title: 'Title' }, note: { type: 'string', title: 'Note' } },
      }),
    'GET api/v1/assets/1/2/src/css/site.css': () =>
      new Response('a {}\nb {}\nc {}', { headers: { ETag: '"v1"', 'Content-Type': 'text/css' } }),
  });
  useSelectionStore.setState({
    portal: { id: 2, name: 'Crew Portal' },
    branch: 'master',
    portalInfo: { status: 'active' } as never,
  });
  return renderScreen(
    FileExplorerScreen,
    '/domain/:domain/portal/:portal/branch/:branch/:language/file-explorer',
    `/domain/1/portal/2/branch/master/en_GB/file-explorer${search}`,
  );
}

describe('File Explorer readiness', () => {
  it('marks files with errors in the grid ("N readiness errors") and their folders subtly; warnings alone are not marked', async () => {
    render();
    const grid = await screen.findByRole('list', { name: 'Assets' });
    const index = within(grid).getByRole('listitem', { name: 'index.html' });
    const mark = await within(index).findByTestId('readiness-error-mark');
    expect(mark).toHaveAccessibleName('2 readiness errors');
    expect(mark).not.toHaveAttribute('tabindex');
    expect(
      within(within(grid).getByRole('listitem', { name: 'logo.png' })).queryByTestId('readiness-error-mark'),
    ).toBeNull();
    const content = within(grid).getByRole('listitem', { name: 'content' });
    expect(within(content).getByTestId('readiness-folder-mark')).toHaveAccessibleName('1 readiness error inside');
    expect(
      within(within(grid).getByRole('listitem', { name: 'images' })).queryByTestId('readiness-folder-mark'),
    ).toBeNull();
  });

  it('marks them in the list view too', async () => {
    render('', 'list');
    const row = (await screen.findByRole('rowheader', { name: /index\.html/ })).closest('tr')!;
    expect(await within(row).findByRole('img', { name: '2 readiness errors' })).toBeInTheDocument();
    const folder = screen.getByRole('rowheader', { name: /content/ });
    expect(within(folder).getByRole('img', { name: '1 readiness error inside' })).toBeInTheDocument();
  });

  it('arrives at ?open=<json file>&pointer=…: the JSON form, the field focused, its finding under it', async () => {
    render('?path=/content&open=content/menu.json&pointer=/title');
    expect(await screen.findByRole('heading', { name: 'Editing: /content/menu.json' })).toBeInTheDocument();
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await waitFor(() => expect(title).toHaveFocus());
    await waitFor(() => expect(title).toHaveAccessibleDescription(/Title must start upper case/));
  });

  it('arrives at ?open=<file>&line=n: the source editor at that line', async () => {
    render('?open=css/site.css&line=3');
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    expect(source).toHaveAttribute('data-goto-line', '3');
    await waitFor(() => expect(source).toHaveFocus());
  });
});
