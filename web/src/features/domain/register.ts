import { registerRoute } from '../../app/registry';

/** The domain area (spec 1 §2.1 domain/{domain}/…); the ids are those of the Domain menu entries. */
registerRoute({ id: 'domain.dashboard', path: 'domain/:domain/dashboard', lazy: () => import('./DomainDashboard') });
registerRoute({ id: 'domain.email', path: 'domain/:domain/email', lazy: () => import('./DomainEmail') });
