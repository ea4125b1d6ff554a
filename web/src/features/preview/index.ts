/**
 * What other features use of the previews (spec 3 §2 "Previews"): the Portal Dashboard's
 * previews card and a preview's detail dialog. The actions of a preview's notification card are
 * registered with the notification centre (register.ts).
 */
export { PreviewsCard } from './PreviewsCard';
export { PreviewDetailDialog } from './PreviewDetailDialog';
