/**
 * The notices after a commit (spec 3 §8): nothing left to commit, content validation warnings, the
 * git host not reached. The Local Changes menu (features/portal), the resolution of conflicts
 * (features/conflicts) and the opening of a portal (core/portalChain) show them alike.
 */
import type { CommitResult } from '../api/portal';
import { toasts } from './toastService';

export const COMMIT_MESSAGES = {
  committing: 'Committing changes',
  /** A commit went through (the resolution of conflicts says so in a toast). */
  committed: 'Changes committed',
  /** The info toast's title when a commit or resolution left nothing to commit (issue 30). */
  nothingCommitted: 'Nothing committed',
  nothingLeft:
    'Nothing was left to commit: your changes are already on the branch. Your local commit is kept under Recover discarded work.',
  warningsCode: 'CONTENT_VALIDATION_PASS_WITH_WARNINGS',
  warnings:
    'Content Validation Warning: Some files that were committed produced content validation warnings. Proceed with caution.',
  /** Title of the separate toast that lists the rule messages (spec 3 §8). */
  warningsAfterCommit: 'Content validation warning occurred after committing changes',
  upstreamWarning: "The portal's git host was not reached",
} as const;

/**
 * When a commit answered CONTENT_VALIDATION_PASS_WITH_WARNINGS: the general warning toast, and
 * a separate one titled 'Content validation warning occurred after committing changes' with
 * the rule messages (spec 3 §8).
 */
export function warnOnValidation(result: CommitResult | undefined | null): void {
  if (result?.code !== COMMIT_MESSAGES.warningsCode) return;
  const sticky = { timeOut: 10_000, closeButton: true };
  toasts.warning(COMMIT_MESSAGES.warnings, undefined, sticky);
  const rules = (result.ruleWarnings ?? []).filter(Boolean);
  if (rules.length > 0) toasts.warning(rules.join('\n'), COMMIT_MESSAGES.warningsAfterCommit, sticky);
}

/**
 * A commit or resolution that left nothing to commit (`committed: false`: the changes are
 * already on the branch; the local commit is kept as discarded work): the server's message as
 * an info toast, not a success. True when so.
 */
export function noteNothingCommitted(result: CommitResult | undefined | null): boolean {
  if (result?.committed !== false) return false;
  toasts.info(result.message || COMMIT_MESSAGES.nothingLeft, COMMIT_MESSAGES.nothingCommitted, {
    timeOut: 10_000,
    closeButton: true,
  });
  return true;
}

/** The portal's git host was not reached (the commit or the opening went ahead): a sticky warning. */
export function warnOnUpstream(warning: string | undefined | null): void {
  if (warning) toasts.warning(warning, COMMIT_MESSAGES.upstreamWarning, { timeOut: 10_000, closeButton: true });
}
