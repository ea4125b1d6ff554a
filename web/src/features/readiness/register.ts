/**
 * Release readiness (issue 29): the Readiness screen in the Portal menu (…/readiness; asset:r,
 * every portal: core/menus.ts), and the READINESS_CHANGED listener in the signed-in shell
 * (renders nothing).
 */
import { patterns } from '../../core/paths';
import { lazyComponent, registerHeaderAction, registerRoute } from '../../core/registry';

registerRoute({
  id: 'portal.readiness',
  path: patterns.portalReadiness,
  lazy: () => import('./ReadinessScreen'),
});

registerHeaderAction({
  id: 'readiness.live',
  order: 1000,
  Component: lazyComponent(() => import('./LiveReadiness')),
});
