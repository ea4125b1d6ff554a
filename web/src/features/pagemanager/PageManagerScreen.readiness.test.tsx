/** The Page Manager's readiness marks (issue 29 item 2): pages whose files have errors. */
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SitemapPage } from '../../api/sitemap';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { jsonResponse, mockFetch, readinessAnswer } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import PageManagerScreen from './PageManagerScreen';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const page = (id: string, title: string, extra: Partial<SitemapPage> = {}): SitemapPage => ({
  id,
  title,
  url: `/pages/${id}.html`,
  children: [],
  ...extra,
});
const root: SitemapPage = {
  id: 'master-page',
  title: 'Master Page',
  url: '/index.html',
  isMaster: true,
  children: [
    page('home', 'Home'),
    page('news', 'News', { url: 'legacy/news.html?x=1' }),
    page('about', 'About'),
    page('ext', 'External', { url: 'https://example.com/index.html' }),
  ],
};
const findings = [
  { rule: 'link.page-missing', path: 'pages/home.html', line: 3, message: "No page 'gone'" },
  { rule: 'page.img-alt', path: 'pages/home.html', line: 5, severity: 'warning', message: 'No alt' },
  { rule: 'asset.missing', path: 'legacy/news.html', line: 2, message: 'img/x.png does not exist' },
  { rule: 'page.missing-file', path: 'sitemap.json', target: 'news', message: 'legacy/news.html is missing' },
  { rule: 'asset.missing', path: 'index.html', line: 8, message: 'css/x.css does not exist' },
  { rule: 'page.img-alt', path: 'pages/about.html', line: 1, severity: 'warning', message: 'Warning only' },
];

const treeItem = (name: string) =>
  screen.findByRole('treeitem', { name: (accessible) => accessible.startsWith(`${name} `) });

describe('Page Manager readiness marks', () => {
  it('marks pages with errors in their file, their sitemap url or a missing file; not those with warnings only', async () => {
    mockFetch({
      'GET api/v1/page/1/2/sitemap': () => jsonResponse(root, 200, { ETag: '"s1"' }),
      'GET api/v1/readiness/1/2': () => readinessAnswer(findings),
    });
    useSelectionStore.setState({
      portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL', scope: 'full' },
      branch: 'master',
    });
    renderScreen(
      PageManagerScreen,
      '/domain/:domain/portal/:portal/branch/:branch/:language/page-manager',
      '/domain/1/portal/2/branch/master/en_GB/page-manager',
    );
    const home = await treeItem('Home');
    const mark = await within(home).findByRole('img', { name: '1 readiness error' });
    expect(mark).not.toHaveAttribute('tabindex');
    const news = await treeItem('News');
    expect(within(news).getByRole('img', { name: '2 readiness errors' })).toBeInTheDocument();
    const about = await treeItem('About');
    expect(within(about).queryByTestId('readiness-error-mark')).toBeNull();
    // An external url names no workspace file (not the master page's index.html).
    expect(within(await treeItem('External')).queryByTestId('readiness-error-mark')).toBeNull();
    // The master page (index.html): its own error, not its children's.
    const master = await treeItem('Master Page');
    expect(within(master).getAllByRole('img', { name: /readiness error/ })[0]).toHaveAccessibleName(
      '1 readiness error',
    );
  });
});
