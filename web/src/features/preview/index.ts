/**
 * What other features use of the previews (spec 3 §2 "Previews"): the Portal Dashboard's
 * previews card, a preview's detail dialog and the actions of a preview's notification card.
 */
export { PreviewsCard } from './PreviewsCard';
export { PreviewDetailDialog } from './PreviewDetailDialog';
export { PreviewCardActions } from './PreviewCardActions';
