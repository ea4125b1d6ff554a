/**
 * Conflict resolution, discarded work and review (issue 21). The resolution screen is a route
 * (register.ts, lazily loaded); other features use these.
 */
export { ReviewDialog, type ReviewDialogProps } from './ReviewDialog';
export { DiffView, type DiffViewProps } from './DiffView';
export { DiscardedWorkDialog, type DiscardedWorkDialogProps } from './DiscardedWorkDialog';
export { useWorkspaceConflicts } from './useWorkspaceConflicts';
export { CONFLICT_MESSAGES } from './messages';
