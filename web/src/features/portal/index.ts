/**
 * What other code uses of the portal workspace: the commit warnings (the selection chain, the
 * conflict resolution's commit) and the labels of the portal settings. The dashboard, pickers
 * and the local-changes menu are registered lazily (register.ts).
 */
export { LOCAL_CHANGES_MESSAGES, noteNothingCommitted, warnOnUpstream, warnOnValidation } from './localChanges/commit';
export { ENGINE_LABELS, LANGUAGE_MODE_LABELS, SUPPORT_LEVEL_LABELS } from './format';
