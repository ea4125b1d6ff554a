import { MASTER_PAGE_ID } from '../../api/pages';

/** The workspace file of a page: the master page is index.html, any other pages/<id>.html. */
export function pagePath(pageId: string): string {
  return pageId === MASTER_PAGE_ID || pageId === '' ? 'index.html' : `pages/${pageId}.html`;
}
