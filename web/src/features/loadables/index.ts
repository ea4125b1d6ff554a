/**
 * What other features use of the loadables (spec 3 §2): the branch picker's guard while a
 * loadable is being created. The loadable screens are lazily loaded routes and the actions of a
 * loadable's notification card are registered with the notification centre (register.ts).
 */
export { confirmBranchChange } from './branchGuard';
