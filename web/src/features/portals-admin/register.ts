/**
 * Portal management (spec 3 §2): Manage Portals and Manage Templates in the Domain menu,
 * Branches and Portal Settings in the Portal menu, Admin Search in Administration. Each
 * route id is its menu entry's id (app/nav/menus.ts). The portal-module screens use full
 * paths under domain/:domain/portal/:portal/branch/:branch/:language/.
 */
import { registerRoute } from '../../app/registry';

const portalModule = 'domain/:domain/portal/:portal/branch/:branch/:language';

registerRoute({
  id: 'domain.portals',
  path: 'domain/:domain/portal-management',
  lazy: () => import('./PortalsScreen'),
});
registerRoute({
  id: 'domain.templates',
  path: 'domain/:domain/template-management',
  lazy: () => import('./TemplatesScreen'),
});
registerRoute({ id: 'portal.branches', path: `${portalModule}/branches`, lazy: () => import('./BranchesScreen') });
registerRoute({ id: 'portal.settings', path: `${portalModule}/settings`, lazy: () => import('./SettingsScreen') });
registerRoute({ id: 'admin.search', path: 'admin/search', lazy: () => import('./SearchScreen') });
