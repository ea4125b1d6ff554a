import { toApiError } from '../../../api/errors';
import { portalApi, type CommitResult, type Id } from '../../../api/portal';
import { overlay } from '../../../app/overlay/overlayStore';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showHttpError, toasts } from '../../../core/toastService';

export const LOCAL_CHANGES_MESSAGES = {
  committing: 'Committing changes',
  /** A commit went through (the resolution of conflicts says so in a toast). */
  committed: 'Changes committed',
  /** The info toast's title when a commit or resolution left nothing to commit (issue 30). */
  nothingCommitted: 'Nothing committed',
  nothingLeft:
    'Nothing was left to commit: your changes are already on the branch. Your local commit is kept under Recover discarded work.',
  reverting: 'Reverting Portal Changes',
  commitFailed: 'Could not commit changes',
  warningsCode: 'CONTENT_VALIDATION_PASS_WITH_WARNINGS',
  warnings:
    'Content Validation Warning: Some files that were committed produced content validation warnings. Proceed with caution.',
  /** Title of the separate toast that lists the rule messages (spec 3 §8). */
  warningsAfterCommit: 'Content validation warning occurred after committing changes',
  revertFailed: 'Could not revert portal',
  upstreamWarning: "The portal's git host was not reached",
  localCommitsFailed: 'Something went wrong pulling local commits',
  revertAllPrompt: 'Revert all local changes? Your uncommitted changes are discarded.',
  revertToPrompt: (message: string) => `Revert to the commit '${message}'? Its content is committed again on top.`,
} as const;

/**
 * When a commit answered CONTENT_VALIDATION_PASS_WITH_WARNINGS: the general warning toast, and
 * a separate one titled 'Content validation warning occurred after committing changes' with
 * the rule messages (spec 3 §8).
 */
export function warnOnValidation(result: CommitResult | undefined | null): void {
  if (result?.code !== LOCAL_CHANGES_MESSAGES.warningsCode) return;
  const sticky = { timeOut: 10_000, closeButton: true };
  toasts.warning(LOCAL_CHANGES_MESSAGES.warnings, undefined, sticky);
  const rules = (result.ruleWarnings ?? []).filter(Boolean);
  if (rules.length > 0) toasts.warning(rules.join('\n'), LOCAL_CHANGES_MESSAGES.warningsAfterCommit, sticky);
}

/**
 * A commit or resolution that left nothing to commit (`committed: false`: the changes are
 * already on the branch; the local commit is kept as discarded work): the server's message as
 * an info toast, not a success. True when so.
 */
export function noteNothingCommitted(result: CommitResult | undefined | null): boolean {
  if (result?.committed !== false) return false;
  toasts.info(result.message || LOCAL_CHANGES_MESSAGES.nothingLeft, LOCAL_CHANGES_MESSAGES.nothingCommitted, {
    timeOut: 10_000,
    closeButton: true,
  });
  return true;
}

/** The portal's git host was not reached (the commit or the opening went ahead): a sticky warning. */
export function warnOnUpstream(warning: string | undefined | null): void {
  if (warning) toasts.warning(warning, LOCAL_CHANGES_MESSAGES.upstreamWarning, { timeOut: 10_000, closeButton: true });
}

/** A failed call as a danger toast titled with the spec's wording and the server's message. */
export function showFailure(title: string, error: unknown): void {
  toasts.danger(toApiError(error).errorMessage, title, { timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS, closeButton: true });
}

export type CommitOutcome = { ok: true } | { ok: false; conflict: string | null };

/** Commit with the 'Committing changes' spinner; 409 GIT_CONFLICTS is returned as a conflict. */
export async function commitChanges(d: Id, p: Id, message: string): Promise<CommitOutcome> {
  overlay.show(LOCAL_CHANGES_MESSAGES.committing);
  try {
    const result = await portalApi.commit(d, p, message);
    noteNothingCommitted(result);
    warnOnValidation(result);
    warnOnUpstream(result?.upstreamWarning);
    return { ok: true };
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.httpStatus === 409 && apiError.hasCode('GIT_CONFLICTS'))
      return { ok: false, conflict: apiError.errorMessage };
    showHttpError(error, LOCAL_CHANGES_MESSAGES.commitFailed);
    return { ok: false, conflict: null };
  } finally {
    overlay.hide();
  }
}

/** Revert All or Revert To behind the 'Reverting Portal Changes' overlay; true on success. */
export async function revert(d: Id, p: Id, commitId?: string): Promise<boolean> {
  overlay.show(LOCAL_CHANGES_MESSAGES.reverting);
  try {
    if (commitId) warnOnValidation(await portalApi.revertTo(d, p, commitId));
    else await portalApi.revertAll(d, p);
    return true;
  } catch (error) {
    showFailure(LOCAL_CHANGES_MESSAGES.revertFailed, error);
    return false;
  } finally {
    overlay.hide();
  }
}
