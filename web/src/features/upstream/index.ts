/**
 * The portal's upstream repository (git host): the Portal Dashboard's card, the settings section
 * and the word the branch picker shows for a branch deleted on the host.
 */
export { UpstreamCard } from './UpstreamCard';
export { UpstreamSettings } from './UpstreamSettings';
export { DELETED_ON_HOST } from './messages';
