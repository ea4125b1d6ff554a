/**
 * The Administration area (spec 1 §2.1, §2.3): each route id matches its
 * ADMIN_MENU entry (app/nav/menus.ts), so registering a route shows the entry.
 * Admin Search is not registered: it needs portals, which do not exist yet.
 */
import { registerRoute } from '../../app/registry';

registerRoute({ id: 'admin.preferences', path: 'admin/preferences', lazy: () => import('./PreferencesScreen') });
registerRoute({ id: 'admin.users', path: 'admin/users/:userId', lazy: () => import('./UsersScreen') });
registerRoute({ id: 'admin.domains', path: 'admin/domains/:domainId', lazy: () => import('./DomainsScreen') });
registerRoute({ id: 'admin.outbox', path: 'admin/outbox', lazy: () => import('./OutboxScreen') });
registerRoute({ id: 'admin.history', path: 'admin/history', lazy: () => import('./HistoryScreen') });
