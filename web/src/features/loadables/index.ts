/**
 * What other features use of the loadables (spec 3 §2): the branch picker's guard while a
 * loadable is being created, and the actions of a loadable's notification card. The loadable
 * screens are lazily loaded routes (register.ts).
 */
export { confirmBranchChange } from './branchGuard';
export { LoadableCardActions } from './LoadableCardActions';
