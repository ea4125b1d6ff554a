/** Source mode (spec 2 §2 "Routes"): …/pages/{pageId}/source-mode, the page's HTML in Ace. */
import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

registerRoute({
  id: 'portal.pageSource',
  path: patterns.pageSource,
  lazy: () => import('./SourceModeScreen'),
});
