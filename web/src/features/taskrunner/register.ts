import { lazyComponent, registerHeaderAction } from '../../app/registry';

/**
 * The header's task-runner menu (spec 3 §2 "Header bar": after the portal search, before the
 * notification centre). It also keeps the runner state of the open portal (useTaskRunnerSync).
 */
registerHeaderAction({
  id: 'taskrunner.menu',
  order: 8,
  Component: lazyComponent(() => import('./TaskRunnerMenu').then((m) => ({ default: m.TaskRunnerMenu }))),
});
