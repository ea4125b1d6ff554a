import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { emptySitemap, sitemap } from './fixtures';
import { PageSelector } from './index';

beforeEach(() => signIn());
afterEach(() => vi.unstubAllGlobals());

const SITEMAP = 'GET api/v1/page/1/2/sitemap';
const treeItem = (name: string) => screen.queryByRole('treeitem', { name });

describe('PageSelector', () => {
  it('tree: expands the root and two levels, filters hidden pages, marks errors and inactive pages', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <PageSelector domainId={1} portalId={2} variant="tree" root={sitemap} value="news" onChange={onChange} />,
    );
    const tree = screen.getByRole('tree', { name: 'Page' });
    expect(treeItem('Master Page')).toHaveAttribute('aria-expanded', 'true');
    expect(treeItem('Home')).toHaveAttribute('aria-expanded', 'true');
    expect(treeItem('News')).toHaveAttribute('aria-expanded', 'true');
    // Third level below the root: visible but closed, so its child is not shown.
    expect(treeItem('Article')).toHaveAttribute('aria-expanded', 'false');
    expect(treeItem('Comments')).not.toBeInTheDocument();
    // Hidden pages (and what is under them) are filtered out.
    expect(treeItem('Secret')).not.toBeInTheDocument();
    expect(treeItem('under-secret')).not.toBeInTheDocument();
    expect(treeItem('News')).toHaveAttribute('aria-selected', 'true');
    expect(treeItem('Broken')).toHaveAttribute('aria-invalid', 'true');
    expect(treeItem('Broken')).toHaveAttribute('data-error', 'The page file is missing');
    expect(treeItem('Old page')).toHaveAttribute('data-inactive', 'true');
    expect(treeItem('Home')).not.toHaveAttribute('data-inactive');

    await userEvent.click(within(tree).getByRole('button', { name: 'Expand Article' }));
    expect(treeItem('Comments')).toBeInTheDocument();
    await userEvent.click(within(treeItem('Comments')!).getByText('Comments'));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: 'comments' }));
  });

  it('popover: reads the sitemap and answers the chosen page', async () => {
    mockFetch({ [SITEMAP]: () => jsonResponse(sitemap) });
    const onChange = vi.fn();
    renderWithProviders(<PageSelector domainId={1} portalId={2} value="home" onChange={onChange} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Page: Home' }));
    const tree = await screen.findByRole('tree', { name: 'Page' });
    await userEvent.click(within(tree).getByText('News'));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: 'news' }));
    await waitFor(() => expect(screen.queryByRole('tree')).not.toBeInTheDocument());
  });

  it('dropdown: a searchable combobox without hidden pages', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <PageSelector domainId={1} portalId={2} variant="dropdown" root={sitemap} value={null} onChange={onChange} />,
    );
    const box = screen.getByRole('combobox', { name: 'Page' });
    await userEvent.click(box);
    const names = screen.getAllByRole('option').map((o) => o.textContent);
    expect(names).toEqual(['Home', 'News', 'Article', 'Comments', 'Old page', 'Broken', 'Captcha', 'Oops']);
    await userEvent.type(box, 'art');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Article']);
    await userEvent.click(screen.getByRole('option', { name: 'Article' }));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: 'article' }));
  });

  it("says 'SiteMap seems to be empty' without pages", async () => {
    mockFetch({ [SITEMAP]: () => jsonResponse(emptySitemap) });
    renderWithProviders(<PageSelector domainId={1} portalId={2} value={null} onChange={vi.fn()} />);
    expect(await screen.findByText('SiteMap seems to be empty')).toBeInTheDocument();
  });
});
