/**
 * The Administration area (spec 1 §2.1, §2.3): each route id matches its
 * ADMIN_MENU entry (core/menus.ts), so registering a route shows the entry.
 * Admin Search is not registered: it needs portals, which do not exist yet.
 */
import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

registerRoute({ id: 'admin.preferences', path: patterns.adminPreferences, lazy: () => import('./PreferencesScreen') });
registerRoute({ id: 'admin.users', path: patterns.adminUsers, lazy: () => import('./UsersScreen') });
registerRoute({ id: 'admin.domains', path: patterns.adminDomains, lazy: () => import('./DomainsScreen') });
registerRoute({ id: 'admin.outbox', path: patterns.adminOutbox, lazy: () => import('./OutboxScreen') });
registerRoute({ id: 'admin.history', path: patterns.adminHistory, lazy: () => import('./HistoryScreen') });
