import { describe, expect, it } from 'vitest';
import { sitemap } from './fixtures';
import {
  defaultExpandedIds,
  findPage,
  flattenPages,
  isInactivePage,
  pageError,
  pageLabel,
  withoutHidden,
} from './sitemapTree';

describe('sitemap tree helpers', () => {
  it('labels pages by title, else id', () => {
    expect(pageLabel({ id: 'home', title: 'Home' })).toBe('Home');
    expect(pageLabel({ id: 'under-secret', title: '' })).toBe('under-secret');
  });

  it('expands the root and its first two levels', () => {
    // depth 0 master-page, 1 home, 2 news (has children); article (depth 3) stays closed.
    expect(defaultExpandedIds(withoutHidden(sitemap))).toEqual(['master-page', 'home', 'news']);
    expect(defaultExpandedIds(sitemap, 1)).toEqual(['master-page', 'home']);
  });

  it('filters hidden pages with their subtrees', () => {
    const ids = flattenPages(withoutHidden(sitemap)).map((r) => r.page.id);
    expect(ids).not.toContain('secret');
    expect(ids).not.toContain('under-secret');
    expect(ids).toContain('comments');
  });

  it('flattens in tree order with depth, marking hidden pages', () => {
    const rows = flattenPages(sitemap);
    expect(rows.map((r) => [r.page.id, r.depth, r.hidden])).toEqual([
      ['home', 0, false],
      ['news', 1, false],
      ['article', 2, false],
      ['comments', 3, false],
      ['secret', 1, true],
      ['under-secret', 2, true],
      ['old', 0, false],
      ['broken', 0, false],
      ['captcha', 0, false],
      ['oops', 0, false],
    ]);
  });

  it('knows inactive and failing pages', () => {
    expect(isInactivePage(findPage(sitemap, 'old')!)).toBe(true);
    expect(isInactivePage({ id: 'x', status: 'INACTIVE' })).toBe(true);
    expect(isInactivePage(findPage(sitemap, 'home')!)).toBe(false);
    expect(pageError(findPage(sitemap, 'broken')!)).toBe('The page file is missing');
    expect(pageError({ id: 'x', status: 'ERROR' })).toBe('ERROR');
    expect(pageError(findPage(sitemap, 'home')!)).toBeNull();
  });
});
