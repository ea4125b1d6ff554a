import { createElement, lazy, Suspense, type ComponentType } from 'react';
import { registerRoute, registerSelector, type SelectorPickerProps } from '../../app/registry';

/**
 * The portal workspace (spec 1 §2.1 domain/{domain}/portal/{portal}/branch/{branch}/{language}/…):
 * the Portal Dashboard and the Select Portal / Branch / Language pickers. The selection chain
 * itself runs in the shell (app/selection/PortalChainHost) for every portal route.
 */
const PORTAL = 'domain/:domain/portal/:portal';
registerRoute({
  id: 'portal.dashboard',
  path: `${PORTAL}/branch/:branch/:language/dashboard`,
  lazy: () => import('./PortalDashboard'),
});
// A portal URL without branch, language or screen: the chain completes it (active branch, default language, dashboard).
registerRoute({ id: 'portal.open', path: PORTAL, lazy: () => import('./PortalOpening') });
registerRoute({ id: 'portal.openBranch', path: `${PORTAL}/branch/:branch`, lazy: () => import('./PortalOpening') });
registerRoute({
  id: 'portal.openLanguage',
  path: `${PORTAL}/branch/:branch/:language`,
  lazy: () => import('./PortalOpening'),
});

function lazyPicker(
  load: () => Promise<{ default: ComponentType<SelectorPickerProps> }>,
): ComponentType<SelectorPickerProps> {
  const Picker = lazy(load);
  return function LazyPicker(props: SelectorPickerProps) {
    return createElement(Suspense, { fallback: null }, createElement(Picker, props));
  };
}

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
