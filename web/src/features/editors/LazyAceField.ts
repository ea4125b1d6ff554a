import { lazy } from 'react';

/**
 * The Ace editor field, loaded when first rendered so ace-builds stays out of the chunks that
 * import the editors: render it inside a Suspense.
 */
export const AceField = lazy(() => import('./AceField'));
export type { AceFieldProps } from './AceField';
