/** Resolve conflicts (issue 21): …/branch/{branch}/{language}/conflicts, opened from the local-changes panel. */
import { patterns } from '../../app/paths';
import { registerRoute } from '../../app/registry';

registerRoute({
  id: 'portal.conflicts',
  path: patterns.portalConflicts,
  lazy: () => import('./ConflictsScreen'),
});
