import { lazyComponent, registerHeaderAction, registerNavigationHold } from '../../core/registry';
import { waitForTasks } from './hold';

/**
 * The header's task-runner menu (spec 3 §2 "Header bar": after the portal search, before the
 * notification centre). It also keeps the runner state of the open portal (useTaskRunnerSync).
 */
registerHeaderAction({
  id: 'taskrunner.menu',
  order: 8,
  Component: lazyComponent(() => import('./TaskRunnerMenu').then((m) => ({ default: m.TaskRunnerMenu }))),
});

// Spec 3 §4: a portal switch, a branch switch and a logout wait for running tasks (the chain and
// the session are in core/, below the features, so the hold comes to them through the registry).
registerNavigationHold(waitForTasks);
