import { closeCommitReview, useCommitReviewRequest } from '../../lib/commitReview';
import { ReviewDialog } from './ReviewDialog';

/**
 * The commit review opened from a feature that cannot import the review (the value history's
 * "Show commit", lib/commitReview): a header action that shows nothing until asked.
 */
export function CommitReviewHost() {
  const request = useCommitReviewRequest();
  if (!request) return null;
  return (
    <ReviewDialog
      open
      onClose={closeCommitReview}
      d={request.d}
      p={request.p}
      subject={{ commit: request.commit }}
      title={request.title}
    />
  );
}
