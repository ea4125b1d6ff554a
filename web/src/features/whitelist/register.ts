/** The Whitelist screen (spec 3 §2) in the Portal menu ('Whitelist'): …/whitelist. */
import { patterns } from '../../core/paths';
import { registerRoute } from '../../core/registry';

registerRoute({
  id: 'portal.whitelist',
  path: `${patterns.portalModule}/whitelist`,
  lazy: () => import('./WhitelistScreen'),
});
