import { lazyComponent, registerHeaderAction } from '../../core/registry';

/**
 * The header's portal search (spec 3 §2 "Header bar: breadcrumbs, portal search with dropdown, …"):
 * first of the header actions, right of the breadcrumbs.
 */
registerHeaderAction({
  id: 'search.portal',
  order: 5,
  Component: lazyComponent(() => import('./HeaderSearch').then((m) => ({ default: m.HeaderSearch }))),
});
