/**
 * The loadable screens (spec 3 §2) in the Portal menu ('Create Loadable', 'Manage Loadables';
 * shown for UNIVERSAL portals only, core/menus.ts): …/loadables-create, …/loadables-manage.
 * The branch-change warning's dialog host sits in the header (renders nothing until asked); a
 * loadable's notification card gets its actions from here (realtime imports no loadables).
 */
import { patterns } from '../../core/paths';
import { lazyComponent, registerHeaderAction, registerRoute } from '../../core/registry';
import { registerCardActions } from '../realtime/cardActions';

registerRoute({
  id: 'portal.loadablesCreate',
  path: `${patterns.portalModule}/loadables-create`,
  lazy: () => import('./CreateLoadableScreen'),
});

registerRoute({
  id: 'portal.loadablesManage',
  path: `${patterns.portalModule}/loadables-manage`,
  lazy: () => import('./ManageLoadablesScreen'),
});

registerHeaderAction({
  id: 'loadables.branchChangeDialog',
  order: 100,
  Component: lazyComponent(() => import('./BranchChangeDialog').then((m) => ({ default: m.BranchChangeDialogHost }))),
});

registerCardActions({
  id: 'loadables',
  order: 20,
  Component: lazyComponent(() => import('./LoadableCardActions').then((m) => ({ default: m.LoadableCardActions }))),
});
