/**
 * A request to show one commit in the commit review (features/conflicts' ReviewDialog), from
 * a feature that may not import it (the value history, inside the editors): the review's host
 * (registered by features/conflicts) listens.
 */
import { useSyncExternalStore } from 'react';

export interface CommitReviewRequest {
  d: number | string;
  p: number | string;
  commit: string;
  title: string;
}

let current: CommitReviewRequest | null = null;
const listeners = new Set<() => void>();

const set = (next: CommitReviewRequest | null) => {
  current = next;
  for (const l of listeners) l();
};

/** Opens the commit review on a commit. */
export const requestCommitReview = (r: CommitReviewRequest) => set(r);
/** Closes it. */
export const closeCommitReview = () => set(null);

/** The request shown now (null: none). */
export function useCommitReviewRequest(): CommitReviewRequest | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
