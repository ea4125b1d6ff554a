import { describe, expect, it } from 'vitest';
import {
  addPageBody,
  moveBounds,
  movePageBody,
  pageModePath,
  pageName,
  pageStatusLabel,
  updatePageBody,
  type Placement,
} from './model';
import type { PageFormValues } from './PageDialog';

const values: PageFormValues = {
  title: '  Weather  ',
  id: 'weather',
  url: '/pages/weather.html',
  parentId: 'home',
  status: 'DRAFT',
  hidePage: true,
  parameters: [{ name: 'airport', description: 'ICAO', required: true }],
};

describe('page manager requests', () => {
  it('adds a page with its title trimmed on the sitemap version read', () => {
    expect(addPageBody(values, 'sv1')).toEqual({
      id: 'weather',
      title: 'Weather',
      url: '/pages/weather.html',
      parameters: [{ name: 'airport', description: 'ICAO', required: true }],
      hidePage: true,
      status: 'DRAFT',
      parentId: 'home',
      sitemapVersion: 'sv1',
    });
  });

  it('sends the parent of an edit only when it changed', () => {
    expect(updatePageBody(values, 'weather', 'home', 'sv2')).not.toHaveProperty('parentId');
    expect(updatePageBody(values, 'weather', 'master-page', 'sv2')).toMatchObject({
      id: 'weather',
      title: 'Weather',
      parentId: 'home',
      sitemapVersion: 'sv2',
    });
  });

  it('moves to a position, or to the end without one', () => {
    expect(movePageBody('news', { parentId: 'home', position: 0 }, 'sv3')).toEqual({
      id: 'news',
      parentId: 'home',
      position: 0,
      sitemapVersion: 'sv3',
    });
    expect(movePageBody('news', { parentId: 'home' }, 'sv3')).toEqual({
      id: 'news',
      parentId: 'home',
      sitemapVersion: 'sv3',
    });
  });
});

describe('page manager screen', () => {
  const placement = (index: number, siblings: number): Placement => ({
    page: { id: 'p', title: 'P' },
    parent: null,
    index,
    siblings,
  });

  it('moves up and down only inside the siblings, never the master page', () => {
    expect(moveBounds(placement(0, 3), false)).toEqual({ up: false, down: true });
    expect(moveBounds(placement(1, 3), false)).toEqual({ up: true, down: true });
    expect(moveBounds(placement(2, 3), false)).toEqual({ up: true, down: false });
    expect(moveBounds(placement(1, 3), true)).toEqual({ up: false, down: false });
    expect(moveBounds(null, false)).toEqual({ up: false, down: false });
  });

  it("opens a page's modes beside the Page Manager's route", () => {
    const base = '/domain/1/portal/2/branch/main/en_GB';
    expect(pageModePath(`${base}/page-manager`, 'home', 'designer-mode')).toBe(`${base}/pages/home/designer-mode`);
    expect(pageModePath(`${base}/page-manager/`, 'a b', 'source-mode')).toBe(`${base}/pages/a%20b/source-mode`);
  });

  it('names pages and their status', () => {
    expect(pageName({ id: 'home', title: 'Home' })).toBe('Home');
    expect(pageName({ id: 'home', title: '' })).toBe('home');
    expect(pageName(null)).toBe('');
    expect(pageStatusLabel(undefined)).toBe('Published');
    expect(pageStatusLabel('DRAFT')).toBe('Draft');
    expect(pageStatusLabel('ERROR')).toBe('ERROR');
  });
});
