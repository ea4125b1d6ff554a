import { lazy } from 'react';
import { registerProfileMenuEntry } from '../../core/registry';

/** 'Edit Profile' in the profile menu opens the profile dialog (loaded when first opened). */
registerProfileMenuEntry({
  id: 'profile.edit',
  label: 'Edit Profile',
  order: 10,
  Dialog: lazy(() => import('./ProfileDialog')),
});
