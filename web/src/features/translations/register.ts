/** The Translation manager (spec 2 §2) in the Portal menu ('Manage Translation'): …/translations. */
import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

registerRoute({
  id: 'portal.translations',
  path: patterns.portalTranslations,
  lazy: () => import('./TranslationsScreen'),
});
