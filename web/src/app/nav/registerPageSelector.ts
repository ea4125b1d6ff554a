import { lazyComponent, registerSelector } from '../../core/registry';

/**
 * Select Page in the side navigation (spec 1 §2.3): registering its picker makes the entry
 * appear where menus.isSelectPageVisible allows it. Imported by SideNav.
 */
registerSelector(
  'page',
  lazyComponent(() => import('./PagePicker')),
);
