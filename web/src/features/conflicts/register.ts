/** Resolve conflicts (issue 21): …/branch/{branch}/{language}/conflicts, opened from the local-changes panel. */
import { patterns } from '../../core/paths';
import { lazyComponent, registerHeaderAction, registerRoute } from '../../core/registry';

registerRoute({
  id: 'portal.conflicts',
  path: patterns.portalConflicts,
  lazy: () => import('./ConflictsScreen'),
});

registerHeaderAction({
  id: 'conflicts.commitReview',
  order: 99,
  Component: lazyComponent(() => import('./CommitReviewHost').then((m) => ({ default: m.CommitReviewHost }))),
});
