/**
 * Portal management (spec 3 §2): Manage Portals and Manage Templates in the Domain menu,
 * Branches and Portal Settings in the Portal menu, Admin Search in Administration. Each
 * route id is its menu entry's id (core/menus.ts). The portal-module screens use full
 * paths under domain/:domain/portal/:portal/branch/:branch/:language/.
 */
import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

registerRoute({
  id: 'domain.portals',
  path: patterns.portalManagement,
  lazy: () => import('./PortalsScreen'),
});
registerRoute({
  id: 'domain.templates',
  path: patterns.templateManagement,
  lazy: () => import('./TemplatesScreen'),
});
registerRoute({ id: 'portal.branches', path: patterns.portalBranches, lazy: () => import('./BranchesScreen') });
registerRoute({ id: 'portal.settings', path: patterns.portalSettings, lazy: () => import('./SettingsScreen') });
registerRoute({ id: 'admin.search', path: patterns.adminSearch, lazy: () => import('./SearchScreen') });
