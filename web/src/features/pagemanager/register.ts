/** The Page Manager (spec 3 §2, Portal menu 'Page Manager'): …/page-manager. */
import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

registerRoute({
  id: 'portal.pageManager',
  path: patterns.pageManager,
  lazy: () => import('./PageManagerScreen'),
});
