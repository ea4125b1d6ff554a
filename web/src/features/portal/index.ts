/**
 * What other code uses of the portal workspace: the labels of the portal settings (the commit
 * notices are core/commitNotices). The dashboard, pickers and the local-changes menu are
 * registered lazily (register.ts).
 */
export { ENGINE_LABELS, LANGUAGE_MODE_LABELS, SUPPORT_LEVEL_LABELS } from './format';
