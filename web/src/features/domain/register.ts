import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

/** The domain area (spec 1 §2.1 domain/{domain}/…); the ids are those of the Domain menu entries. */
registerRoute({ id: 'domain.dashboard', path: patterns.domainDashboard, lazy: () => import('./DomainDashboard') });
registerRoute({ id: 'domain.email', path: patterns.domainEmail, lazy: () => import('./DomainEmail') });
