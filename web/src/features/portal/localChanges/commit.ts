import { toApiError } from '../../../api/errors';
import { portalApi, type Id } from '../../../api/portal';
import { overlay } from '../../../core/overlayStore';
import { COMMIT_MESSAGES, noteNothingCommitted, warnOnUpstream, warnOnValidation } from '../../../core/commitNotices';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showHttpError, toasts } from '../../../core/toastService';

export const LOCAL_CHANGES_MESSAGES = {
  ...COMMIT_MESSAGES,
  reverting: 'Reverting Portal Changes',
  commitFailed: 'Could not commit changes',
  revertFailed: 'Could not revert portal',
  localCommitsFailed: 'Something went wrong pulling local commits',
  revertAllPrompt: 'Revert all local changes? Your uncommitted changes are discarded.',
  revertToPrompt: (message: string) => `Revert to the commit '${message}'? Its content is committed again on top.`,
} as const;

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
