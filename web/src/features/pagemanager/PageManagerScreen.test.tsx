import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portalKeys } from '../../api/portal';
import type { SitemapPage } from '../../api/sitemap';
import { sitemapKeys } from '../../api/sitemap';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { bodyOf, called, errorResponse, jsonResponse, mockFetch, queryOf, sampleUser } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { idFromTitle, PAGE_MANAGER_MESSAGES as MSG, pageIdError, parentOptions, placementOf } from './model';
import PageManagerScreen from './PageManagerScreen';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

const page = (id: string, title: string, extra: Partial<SitemapPage> = {}): SitemapPage => ({
  id,
  title,
  url: `/pages/${id}.html`,
  parameters: [],
  hidePage: false,
  status: 'PUBLISHED',
  children: [],
  ...extra,
});

const tree = (): SitemapPage => ({
  id: 'master-page',
  title: 'Master Page',
  url: '/index.html',
  isMaster: true,
  children: [
    page('home', 'Home'),
    page('flight-info', 'Flight info', {
      children: [
        page('weather', 'Weather', { parameters: [{ name: 'airport', description: 'ICAO', required: true }] }),
      ],
    }),
    page('news', 'News', { status: 'DRAFT' }),
    page('about', 'About', { hidePage: true }),
  ],
});

const SITEMAP = 'GET api/v1/page/1/2/sitemap';
const ADD = 'POST api/v1/page/1/2';
const UPDATE = 'PUT api/v1/page/1/2';
const sitemapResponse = (root = tree(), version = 's1') => jsonResponse(root, 200, { ETag: `"${version}"` });
const pageAnswer = (p: SitemapPage, extra: object = {}) =>
  jsonResponse({
    ...p,
    html: '<h1/>',
    parentId: 'master-page',
    position: 0,
    path: `pages/${p.id}.html`,
    version: 'f1',
    sitemapVersion: 's1',
    ...extra,
  });

const pattern = '/domain/:domain/portal/:portal/branch/:branch/:language/page-manager';

function render({
  permissions,
  portal = { supportLevel: 'FULL', scope: 'full' } as const,
}: {
  permissions?: string[];
  portal?: { supportLevel?: 'FULL' | 'LIMITED'; scope?: 'full' | 'captive' };
} = {}) {
  useSelectionStore.setState({
    portal: { id: 2, name: 'Crew Portal', ...portal },
    branch: 'master',
    permissions: permissions ?? [],
  });
  const user = permissions ? { ...sampleUser, admin: false } : undefined;
  const utils = renderScreen(PageManagerScreen, pattern, '/domain/1/portal/2/branch/master/en_GB/page-manager', user);
  return { ...utils, user: userEvent.setup() };
}

// Tree items are named by their content (title, id, markers, open children): found by the title they start with.
const treeItem = (name: string) =>
  screen.findByRole('treeitem', { name: (accessible) => accessible.startsWith(`${name} `) || accessible === name });
const select = async (u: ReturnType<typeof userEvent.setup>, name: string) => {
  const item = await treeItem(name);
  await u.click(
    within(item)
      .getAllByRole('button')
      .find((b) => b.textContent?.startsWith(name))!,
  );
};

describe('page manager model', () => {
  it('derives an id from a title and checks ids like the server', () => {
    expect(idFromTitle('Crew Notices & News!')).toBe('crew-notices-news');
    expect(idFromTitle('  Été 2024 ')).toBe('ete-2024');
    expect(pageIdError('home', new Set(['home']))).toBe(MSG.idExists('home'));
    expect(pageIdError('Bad Id')).toBe(MSG.id);
    expect(pageIdError('-x')).toBe(MSG.id);
    expect(pageIdError('master-page')).toBe(MSG.reservedId('master-page'));
    expect(pageIdError('ok_id-1')).toBeNull();
  });

  it('places pages and offers parents without the page and its sub-pages', () => {
    const root = tree();
    expect(placementOf(root, 'news')).toMatchObject({ parent: { id: 'master-page' }, index: 2, siblings: 4 });
    expect(parentOptions(root, 'flight-info').map((o) => o.id)).toEqual(['master-page', 'home', 'news', 'about']);
  });
});

describe('PageManagerScreen', () => {
  it('shows the sitemap as a tree with ids and hidden/draft markers', async () => {
    mockFetch({ [SITEMAP]: () => sitemapResponse() });
    render();
    const root = await treeItem('Master Page');
    expect(root).toHaveAttribute('aria-level', '1');
    expect(within(root).getByText('master-page')).toBeInTheDocument();
    const weather = await treeItem('Weather');
    expect(weather).toHaveAttribute('aria-level', '3');
    expect(await treeItem('About')).toHaveAttribute('data-hidden', 'true');
    expect(within(await treeItem('About')).getByText('Hidden')).toBeInTheDocument();
    expect(within(await treeItem('News')).getByText('Draft')).toBeInTheDocument();
  });

  it('adds a page: id and url from the title, validation messages, the sitemap version sent', async () => {
    const fetch = mockFetch({
      [SITEMAP]: () => sitemapResponse(),
      [ADD]: () => pageAnswer(page('crew-notices', 'Crew Notices'), {}),
    });
    const { user, queryClient } = render();
    queryClient.setQueryData(portalKeys.localChanges(1, 2), []);
    await treeItem('Home');
    await user.click(screen.getByRole('button', { name: 'Add page' }));
    const dialog = await screen.findByRole('dialog');
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.type(title, '-bad');
    expect(
      await within(dialog).findByText('Please enter only alphanumeric characters, spaces, underscores and/or dashes.'),
    ).toBeInTheDocument();
    await user.clear(title);
    await user.type(title, 'Crew Notices');
    expect(within(dialog).getByRole('textbox', { name: 'Page id' })).toHaveValue('crew-notices');
    expect(within(dialog).getByRole('textbox', { name: 'URL' })).toHaveValue('/pages/crew-notices.html');
    // A taken id is refused before sending.
    const id = within(dialog).getByRole('textbox', { name: 'Page id' });
    await user.clear(id);
    await user.type(id, 'home');
    expect(await within(dialog).findByText(MSG.idExists('home'))).toBeInTheDocument();
    await user.clear(id);
    await user.type(id, 'crew-notices');
    await user.click(within(dialog).getByRole('button', { name: 'Add parameter' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Parameter 1 name' }), '1bad');
    expect(await within(dialog).findByText(MSG.parameterName)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove parameter 1' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add parameter' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Parameter 1 name' }), 'airport');
    await user.type(within(dialog).getByRole('textbox', { name: 'Parameter 1 description' }), 'ICAO code');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Hide page' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(fetch, ADD)).toEqual({
      id: 'crew-notices',
      title: 'Crew Notices',
      url: '/pages/crew-notices.html',
      parameters: [{ name: 'airport', description: 'ICAO code', required: true }],
      hidePage: true,
      status: 'PUBLISHED',
      parentId: 'master-page',
      sitemapVersion: 's1',
    });
    expect(queryClient.getQueryState(portalKeys.localChanges(1, 2))?.isInvalidated).toBe(true);
    await waitFor(() => expect(fetch.mock.calls.filter(([u]) => String(u).endsWith('/sitemap')).length).toBe(2));
  });

  it("shows the server's error in the add dialog", async () => {
    mockFetch({
      [SITEMAP]: () => sitemapResponse(),
      [ADD]: () =>
        errorResponse(409, {
          errorTitle: 'Failed to add a new page.',
          errorMessage: 'The file pages/x.html exists already, though no page of the sitemap uses it.',
          errorCode: 'FILE_EXISTS',
        }),
    });
    const { user } = render();
    await treeItem('Home');
    await user.click(screen.getByRole('button', { name: 'Add page' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'X');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to add a new page.');
    expect(alert).toHaveTextContent('exists already');
  });

  it('edits a page: the same dialog filled, the changes sent with the sitemap version', async () => {
    const fetch = mockFetch({
      [SITEMAP]: () => sitemapResponse(),
      [UPDATE]: () => pageAnswer(page('weather', 'Weather now')),
    });
    const { user } = render();
    await select(user, 'Weather');
    await user.click(screen.getByRole('button', { name: 'Edit page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit page' });
    expect(within(dialog).getByRole('textbox', { name: 'Page id' })).toBeDisabled();
    expect(within(dialog).getByRole('textbox', { name: 'Parameter 1 name' })).toHaveValue('airport');
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.type(title, 'Weather now');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(fetch, UPDATE)).toEqual({
      id: 'weather',
      title: 'Weather now',
      url: '/pages/weather.html',
      parameters: [{ name: 'airport', description: 'ICAO', required: true }],
      hidePage: false,
      status: 'PUBLISHED',
      sitemapVersion: 's1',
    });
  });

  it('clones a page under a new id and title', async () => {
    const fetch = mockFetch({
      [SITEMAP]: () => sitemapResponse(),
      'POST api/v1/page/1/2/clone/home': () => pageAnswer(page('home-2', 'Home 2')),
    });
    const { user } = render();
    await select(user, 'Home');
    await user.click(screen.getByRole('button', { name: 'Clone page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clone page' });
    expect(within(dialog).getByRole('textbox', { name: 'New page id' })).toHaveValue('copy-of-home');
    const title = within(dialog).getByRole('textbox', { name: 'New title' });
    await user.clear(title);
    await user.type(title, 'Home 2');
    expect(within(dialog).getByRole('textbox', { name: 'New page id' })).toHaveValue('home-2');
    await user.click(within(dialog).getByRole('button', { name: 'Clone' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(fetch, 'POST api/v1/page/1/2/clone/home')).toEqual({
      id: 'home-2',
      title: 'Home 2',
      sitemapVersion: 's1',
    });
  });

  it('deletes a page with the versions read', async () => {
    const fetch = mockFetch({
      [SITEMAP]: () => sitemapResponse(),
      'GET api/v1/page/1/2/news': () => pageAnswer(page('news', 'News'), { version: 'f7', sitemapVersion: 's1' }),
      'DELETE api/v1/page/1/2/news': () => jsonResponse({ id: 'news', sitemapVersion: 's2' }),
    });
    const { user } = render();
    await select(user, 'News');
    await user.click(screen.getByRole('button', { name: 'Delete page' }));
    const dialog = await screen.findByRole('dialog', { name: MSG.deleteTitle });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const q = queryOf(fetch, 'DELETE api/v1/page/1/2/news');
    expect(q.get('sitemapVersion')).toBe('s1');
    expect(q.get('version')).toBe('f7');
  });

  it("refuses to delete a page with sub-pages, with the server's message", async () => {
    mockFetch({
      [SITEMAP]: () => sitemapResponse(),
      'GET api/v1/page/1/2/flight-info': () => pageAnswer(page('flight-info', 'Flight info')),
      'DELETE api/v1/page/1/2/flight-info': () =>
        errorResponse(409, {
          errorTitle: 'Failed to remove page.',
          errorMessage: "The page 'Flight info' has sub-pages. Move or remove them first.",
          errorCode: 'PAGE_HAS_CHILDREN',
        }),
    });
    const { user } = render();
    await select(user, 'Flight info');
    await user.click(screen.getByRole('button', { name: 'Delete page' }));
    const dialog = await screen.findByRole('dialog', { name: MSG.deleteTitle });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to remove page.');
    expect(alert).toHaveTextContent('has sub-pages. Move or remove them first.');
  });

  it('moves a page up and down among its siblings', async () => {
    const fetch = mockFetch({
      [SITEMAP]: () => sitemapResponse(),
      [UPDATE]: () => pageAnswer(page('news', 'News')),
    });
    const { user } = render();
    await select(user, 'Home');
    expect(screen.getByRole('button', { name: 'Move up' })).toBeDisabled();
    await select(user, 'News');
    await user.click(screen.getByRole('button', { name: 'Move up' }));
    await waitFor(() => expect(called(fetch, UPDATE)).toBe(true));
    expect(bodyOf(fetch, UPDATE)).toEqual({ id: 'news', parentId: 'master-page', position: 1, sitemapVersion: 's1' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move down' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Move down' }));
    await waitFor(() =>
      expect(fetch.mock.calls.filter(([, i]) => (i as RequestInit | undefined)?.method === 'PUT')).toHaveLength(2),
    );
    const second = fetch.mock.calls.filter(
      ([, i]) => (i as RequestInit | undefined)?.method === 'PUT',
    )[1][1] as RequestInit;
    expect(JSON.parse(String(second.body))).toEqual({
      id: 'news',
      parentId: 'master-page',
      position: 3,
      sitemapVersion: 's1',
    });
  });

  it('moves a page under another parent', async () => {
    const fetch = mockFetch({
      [SITEMAP]: () => sitemapResponse(),
      [UPDATE]: () => pageAnswer(page('home', 'Home')),
    });
    const { user, queryClient } = render();
    queryClient.setQueryData(sitemapKeys.sitemap(1, 2), tree());
    await select(user, 'Home');
    await user.click(screen.getByRole('button', { name: 'Move to…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move page' });
    await user.click(within(dialog).getByRole('combobox', { name: /New parent page/ }));
    await user.click(await screen.findByRole('option', { name: /Flight info/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(fetch, UPDATE)).toEqual({ id: 'home', parentId: 'flight-info', sitemapVersion: 's1' });
    expect(queryClient.getQueryState(sitemapKeys.sitemap(1, 2))?.isInvalidated).toBe(true);
  });

  it('hides the controls the permissions do not allow', async () => {
    mockFetch({ [SITEMAP]: () => sitemapResponse() });
    render({ permissions: ['page_read'] });
    await treeItem('Home');
    for (const name of ['Add page', 'Edit page', 'Clone page', 'Delete page', 'Move up', 'Move down', 'Move to…'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open in designer' })).toBeInTheDocument();
  });

  it('shows only the allowed controls for page:r + page:d', async () => {
    mockFetch({ [SITEMAP]: () => sitemapResponse() });
    render({ permissions: ['page_read', 'page_delete'] });
    await treeItem('Home');
    expect(screen.getByRole('button', { name: 'Delete page' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add page' })).not.toBeInTheDocument();
  });

  it('is not offered without page read permission', async () => {
    mockFetch({ [SITEMAP]: () => sitemapResponse() });
    render({ permissions: [] });
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have the right permission');
  });

  it.each([
    ['limited', { supportLevel: 'LIMITED', scope: 'full' } as const],
    ['captive', { supportLevel: 'FULL', scope: 'captive' } as const],
  ])('says it is not available for a %s portal', async (_, portal) => {
    const fetch = mockFetch({ [SITEMAP]: () => sitemapResponse() });
    render({ portal });
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.notAvailable);
    expect(called(fetch, SITEMAP)).toBe(false);
  });
});
