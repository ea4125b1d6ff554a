import { patterns } from '../../core/paths';
import { lazyComponent, registerHeaderAction, registerRoute, registerSelector } from '../../core/registry';

/**
 * The portal workspace (spec 1 §2.1 domain/{domain}/portal/{portal}/branch/{branch}/{language}/…):
 * the Portal Dashboard and the Select Portal / Branch / Language pickers. The selection chain
 * itself runs in the shell (app/selection/PortalChainHost) for every portal route.
 */
registerRoute({
  id: 'portal.dashboard',
  path: patterns.portalDashboard,
  lazy: () => import('./PortalDashboard'),
});
// A portal URL without branch, language or screen: the chain completes it (active branch, default language, dashboard).
registerRoute({ id: 'portal.open', path: patterns.portal, lazy: () => import('./PortalOpening') });
registerRoute({ id: 'portal.openBranch', path: patterns.portalBranch, lazy: () => import('./PortalOpening') });
registerRoute({
  id: 'portal.openLanguage',
  path: patterns.portalModule,
  lazy: () => import('./PortalOpening'),
});

const lazyPicker = lazyComponent;

registerSelector(
  'portal',
  lazyPicker(() => import('./pickers/PortalPicker')),
);
registerSelector(
  'branch',
  lazyPicker(() => import('./pickers/BranchPicker')),
);
registerSelector(
  'language',
  lazyPicker(() => import('./pickers/LanguagePicker')),
);

registerHeaderAction({
  id: 'portal.localChanges',
  order: 30,
  Component: lazyComponent(() =>
    import('./localChanges/LocalChangesMenu').then((m) => ({ default: m.LocalChangesMenu })),
  ),
});
