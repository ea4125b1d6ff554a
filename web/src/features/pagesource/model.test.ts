import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { pageKeys, type Page } from '../../api/pages';
import { portalKeys } from '../../api/portal';
import { SOURCE_MESSAGES as MSG } from './messages';
import {
  batchVersion,
  followsSave,
  isPageConflict,
  ItemError,
  leavesPage,
  modePath,
  pageBase,
  pageBatch,
  pageFileText,
  pageTitle,
  selectedPageUpdate,
  shownFailure,
  StaleItem,
  unbalancedSave,
} from './model';

const BASE = '/domain/1/portal/2/branch/master/en_GB/pages';
/** An answer that left out the page's html and version. */
const bare = {} as Pick<Page, 'html' | 'version'>;

describe('modePath', () => {
  it('builds the other mode of the same page', () => {
    expect(modePath(`${BASE}/home/source-mode`, 'designer-mode')).toBe(`${BASE}/home/designer-mode`);
    expect(modePath(`${BASE}/home/designer-mode/`, 'source-mode')).toBe(`${BASE}/home/source-mode`);
  });
  it('leaves a path without a mode as it is', () => {
    expect(modePath(`${BASE}/home`, 'designer-mode')).toBe(`${BASE}/home`);
  });
});

describe("the page's text and title", () => {
  it('falls back to the id without a title, to empty text and version without html or version', () => {
    expect(pageTitle({ id: 'home', title: 'Home' })).toBe('Home');
    expect(pageTitle({ id: 'home', title: '' })).toBe('home');
    expect(pageBase({ html: '<p>x</p>', version: 'v1' })).toEqual({ text: '<p>x</p>', version: 'v1' });
    expect(pageBase(bare)).toEqual({ text: '', version: '' });
    expect(pageFileText({ html: '<p>x</p>', version: 'v1' })).toEqual({ data: '<p>x</p>', version: 'v1' });
    expect(pageFileText(bare)).toEqual({ data: '', version: '' });
  });

  it('updates the selected page only when its id or title changed', () => {
    expect(selectedPageUpdate(null, { id: 'home', title: 'Home' })).toEqual({ id: 'home', title: 'Home' });
    expect(selectedPageUpdate({ id: 'home', title: 'Home' }, { id: 'home', title: 'Home' })).toBeNull();
    expect(selectedPageUpdate({ id: 'home', title: 'Home' }, { id: 'home', title: '' })).toEqual({
      id: 'home',
      title: 'home',
    });
    expect(selectedPageUpdate({ id: 'home', title: 'Home' }, { id: 'about', title: 'Home' })).toEqual({
      id: 'about',
      title: 'Home',
    });
  });
});

describe('the batch save', () => {
  it('sends the page with the version the edit started from', () => {
    expect(pageBatch('home', '<h1>Home</h1>', 'v1')).toEqual([
      { file: 'home', data: '<h1>Home</h1>', type: 'page', version: 'v1' },
    ]);
    expect(pageBatch('master-page', '', null)).toEqual([{ file: 'master-page', data: '', type: 'page', version: '' }]);
  });

  it("reads the item's new version", () => {
    expect(batchVersion({ file: 'home', path: 'pages/home.html', version: 'v2' })).toBe('v2');
    expect(batchVersion({ file: 'home' })).toBe('');
  });

  it('throws StaleItem for a stale version, by code or code description', () => {
    expect(() =>
      batchVersion({ file: 'home', error: { errorCode: 'FILE_CHANGED', errorMessage: 'changed', httpStatus: 409 } }),
    ).toThrow(StaleItem);
    expect(() => batchVersion({ file: 'home', error: { errorCodeDesc: 'FILE_CHANGED' } })).toThrow(StaleItem);
  });

  it("throws the item's error, or one saying there was no result", () => {
    const error = { errorTitle: 'Could not save', errorMessage: 'No page', errorCode: 'PAGE_NOT_FOUND' };
    let thrown: unknown = null;
    try {
      batchVersion({ file: 'home', error });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ItemError);
    expect((thrown as ItemError).item).toBe(error);
    expect((thrown as ItemError).message).toBe('No page');
    expect(() => batchVersion(undefined)).toThrow(new ItemError({ errorMessage: MSG.noResult }));
  });
});

describe('a failed save', () => {
  it('is a conflict for a stale item and a 409 FILE_CHANGED, not for other errors', () => {
    expect(isPageConflict(new StaleItem())).toBe(true);
    expect(isPageConflict(new ApiError({ httpStatus: 409, errorCode: 'FILE_CHANGED' }))).toBe(true);
    expect(isPageConflict(new ApiError({ httpStatus: 409, errorCode: 'OTHER' }))).toBe(false);
    expect(isPageConflict(new ItemError({ errorCode: 'FILE_CHANGED' }))).toBe(false);
    expect(isPageConflict(new Error('x'))).toBe(false);
  });

  it("shows an item's error as it is and any other with the save's title", () => {
    const item = { errorTitle: 'Not found', errorMessage: 'No page' };
    expect(shownFailure(new ItemError(item))).toBe(item);
    expect(shownFailure(new ApiError({ httpStatus: 500, errorMessage: 'Disk full' }))).toEqual({
      errorTitle: MSG.saveFailed,
      errorMessage: 'Disk full',
    });
    expect(shownFailure(new TypeError('Failed to fetch'))).toEqual({
      errorTitle: MSG.saveFailed,
      errorMessage: 'An unknown error occurred',
    });
  });
});

describe('followsSave', () => {
  const follows = followsSave('1', '2', 'home');
  it("refreshes the workspace's views but not the page being edited", () => {
    expect(follows(portalKeys.localChanges(1, 2))).toBe(true);
    expect(follows(pageKeys.page('1', '2', 'about'))).toBe(true);
    expect(follows(pageKeys.page('1', '2', 'home'))).toBe(false);
  });
  it("leaves other portals' and non-workspace queries alone", () => {
    expect(follows(portalKeys.localChanges(1, 3))).toBe(false);
    expect(follows(['users'])).toBe(false);
  });
});

describe('unbalancedSave', () => {
  it('asks first when the markup does not balance, remembering whether the save was for leaving', () => {
    expect(unbalancedSave('<div><p>x</p></div>', false)).toBeNull();
    expect(unbalancedSave('<div>\n<span>x</div>', true)).toEqual({
      problem: { kind: 'unclosed', tag: 'span', line: 2 },
      leaving: true,
    });
    expect(unbalancedSave('</section>', false)).toEqual({
      problem: { kind: 'unexpected-close', tag: 'section', line: 1 },
      leaving: false,
    });
  });
  it("words the warning by the problem's kind", () => {
    const warning = unbalancedSave('<main>\n</p></main>', false);
    expect(warning && MSG.unbalancedText(warning.problem)).toBe(
      'Line 2: </p> closes an element that is not open. Save the page anyway?',
    );
  });
});

describe('leavesPage', () => {
  it('counts another path or other parameters as leaving, not the same location', () => {
    const here = { pathname: `${BASE}/home/source-mode`, search: '' };
    expect(leavesPage(here, { ...here })).toBe(false);
    expect(leavesPage(here, { pathname: `${BASE}/home/designer-mode`, search: '' })).toBe(true);
    expect(leavesPage(here, { ...here, search: '?x=1' })).toBe(true);
  });
});
