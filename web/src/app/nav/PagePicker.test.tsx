import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { sampleUser } from '../../test/helpers';
import { renderRoute, signIn } from '../../test/render';
import { initialSelectionState, useSelectionStore, type SelectedPortal } from '../../core/selectionStore';
import PagePicker from './PagePicker';
import { SideNav } from './SideNav';

const SITEMAP = {
  id: 'master-page',
  title: 'Master Page',
  url: '/index.html',
  isMaster: true,
  children: [
    { id: 'home', title: 'Home', children: [{ id: 'weather', title: 'Weather', children: [] }] },
    { id: 'secret', title: 'Secret', hidePage: true, children: [] },
  ],
};
const crew: SelectedPortal = {
  id: 1,
  name: 'Crew Portal',
  supportLevel: 'FULL',
  engineType: 'PORTAL_ENGINE',
  scope: 'full',
};
const base = '/domain/1/portal/1/branch/feature:summer/fr_FR';

function select(portal: SelectedPortal = crew, page: { id: string; title: string } | null = null) {
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo Airline' },
    portal,
    branch: 'feature/summer',
    language: 'fr_FR',
    page,
    sitemap: SITEMAP,
    sitemapFor: 'loaded',
    permissions: ['page_read'],
    permissionsDomainId: '1',
  });
}

const renderPicker = (path: string) => {
  const anchor = document.createElement('div');
  document.body.appendChild(anchor);
  return renderRoute([{ path: '*', element: <PagePicker anchorEl={anchor} onClose={() => undefined} /> }], path);
};

beforeEach(() => signIn());

describe('Select Page', () => {
  it('lists the sitemap (hidden pages left out) and opens a page in designer mode from another screen', async () => {
    select();
    const { router } = renderPicker(`${base}/dashboard`);
    expect(screen.getByRole('tree', { name: 'Pages' })).toBeInTheDocument();
    expect(screen.queryByRole('treeitem', { name: 'Secret' })).toBeNull();
    await userEvent.click(screen.getByText('Weather'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/pages/weather/designer-mode`));
  });

  it('keeps the current mode when another page is picked', async () => {
    select(crew, { id: 'home', title: 'Home' });
    const { router } = renderPicker(`${base}/pages/home/source-mode`);
    expect(screen.getByRole('treeitem', { name: 'Home' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(screen.getByText('Weather'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/pages/weather/source-mode`));
  });

  it("shows the page title in the side navigation ('No page selected' when none)", async () => {
    select();
    const nav = renderRoute([{ path: '*', element: <SideNav /> }], '/');
    const entry = await screen.findByRole('button', { name: /Select Page/ });
    expect(entry).toHaveTextContent('No page selected');
    select(crew, { id: 'weather', title: 'Weather' });
    await waitFor(() => expect(entry).toHaveTextContent('Weather'));
    await userEvent.click(entry);
    expect(await screen.findByRole('tree', { name: 'Pages' })).toBeInTheDocument();
    nav.unmount();
  });

  it('is not offered for limited, universal or captive portals, nor without page read', () => {
    for (const portal of [
      { ...crew, supportLevel: 'LIMITED' as const },
      { ...crew, engineType: 'UNIVERSAL' as const },
      { ...crew, scope: 'captive' as const },
    ]) {
      select(portal);
      const nav = renderRoute([{ path: '*', element: <SideNav /> }], '/');
      expect(screen.queryByRole('button', { name: /Select Page/ })).toBeNull();
      nav.unmount();
    }
    select();
    signIn(sampleUser);
    useSelectionStore.setState({ permissions: [] });
    const nav = renderRoute([{ path: '*', element: <SideNav /> }], '/');
    expect(screen.queryByRole('button', { name: /Select Page/ })).toBeNull();
    nav.unmount();
  });
});
