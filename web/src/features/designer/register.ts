/** The page designer (spec 2 §2 "Routes"): …/pages/{pageId}/designer-mode. */
import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

registerRoute({
  id: 'portal.pageDesigner',
  path: patterns.portalPageDesigner,
  lazy: () => import('./DesignerScreen'),
});
