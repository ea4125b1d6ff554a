/**
 * "The workspace changed → refresh every view derived from it" (issue 8 item 0). Reload Now,
 * Revert All, Revert To, Reset and a branch switch change the files of the user's workspace
 * under the screens; afterwards every view shows the workspace as it now is, never an older
 * copy that a later save would write back:
 *
 * - queries: every query whose key starts with portalKeys.workspace(d, p) (['portal', d, p, …]:
 *   local changes, local commits, other users' changes, references, portal settings, probe
 *   settings, statistics, engine version, …) or with ['portals-admin', d, 'portal', p, …]
 *   (branches, active branch). Those on screen load again at once; the others are dropped, so
 *   a screen opened later loads afresh instead of showing the old file first.
 * - stores: the selection's copy of the portal settings (languages, engine type, support level)
 *   comes from opening the workspace again (`reopen`); the workspace epoch moves on, so the file
 *   watcher starts over (features/realtime).
 * - a screen holding an edit of a file (Portal Settings) sees the file's new version and drops
 *   or re-bases its edit; a save based on the old version is refused by the server (409
 *   FILE_CHANGED), so nothing is overwritten silently.
 *
 * New workspace-derived queries must use a key under portalKeys.workspace(d, p).
 */
import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { toApiError } from '../api/errors';
import { portalApi, type Id, type OpenedPortal } from '../api/portal';
import { overlay } from './overlayStore';
import { CHAIN_MESSAGES, openedToSelection } from './portalChain';
import { raisePortalError } from './portalError';
import { isPortalGoneError } from './portalGone';
import { closePortal, selectPortal, useSelectionStore } from './selectionStore';

/** Whether a query key belongs to the workspace of portal `p` in domain `d`. */
export function isWorkspaceQueryKey(key: readonly unknown[], d: Id, p: Id): boolean {
  const [first, second, third, fourth] = key.map((part) => (part === undefined ? undefined : String(part)));
  if (first === 'portal') return second === String(d) && third === String(p);
  if (first === 'portals-admin') return second === String(d) && third === 'portal' && fourth === String(p);
  return false;
}

interface EpochState {
  /** Moves on every time a workspace changed under the screens. */
  epoch: number;
}

/** The workspace epoch: hooks that keep workspace state outside queries (the file watcher) follow it. */
export const useWorkspaceEpoch = create<EpochState>(() => ({ epoch: 0 }));

/**
 * Refreshes every query of the workspace (the ones on screen now, the others when next shown)
 * and moves the workspace epoch on. Resolves when the queries on screen have loaded again.
 */
export async function refreshWorkspaceViews(queryClient: QueryClient, d: Id, p: Id): Promise<void> {
  const predicate = (query: { queryKey: readonly unknown[] }) => isWorkspaceQueryKey(query.queryKey, d, p);
  queryClient.removeQueries({ predicate, type: 'inactive' });
  useWorkspaceEpoch.setState((s) => ({ epoch: s.epoch + 1 }));
  // cancelRefetch (the default) drops answers of requests that started before the change.
  await queryClient.invalidateQueries({ predicate }).catch(() => undefined);
}

/**
 * Opens the user's workspace of the portal again on `branch` (the server switches to it, or
 * fast-forwards a clean workspace) and puts what it answered into the selection: branch and
 * the portal settings (the language stays when the portal still has it). Throws the API error.
 */
export async function reopenPortal(d: Id, p: Id, branch: string, override = false): Promise<OpenedPortal> {
  const opened = await portalApi.open(d, p, branch, override);
  const { portal, info } = openedToSelection(opened);
  const { language } = useSelectionStore.getState();
  const lang = language && info.languages.includes(language) ? language : info.defaultLanguage;
  selectPortal(portal, info, opened.branch || branch, lang);
  return opened;
}

export interface WorkspaceTarget {
  domainId: Id;
  portalId: Id;
  /** The branch the workspace is on after the change. */
  branch: string;
}

/**
 * The one call after Reload Now, Revert All, Revert To, Reset and a branch switch. With
 * `reopen` the workspace is opened again first (behind 'Opening Portal'), so the selection's
 * settings are fresh and the queries load what the workspace holds after the open; a failure
 * shows the portal error screen (with Reset where the code offers it), as opening does.
 * Resolves true when the views were refreshed after a successful reopen (or without one).
 */
export async function workspaceChanged(
  queryClient: QueryClient,
  target: WorkspaceTarget,
  { reopen = false }: { reopen?: boolean } = {},
): Promise<boolean> {
  const { domainId: d, portalId: p, branch } = target;
  let ok = true;
  if (reopen) {
    overlay.show(CHAIN_MESSAGES.openingPortal);
    try {
      await reopenPortal(d, p, branch);
    } catch (cause) {
      ok = false;
      const error = toApiError(cause);
      // A deleted portal is left by the portal-gone listener (core/portalGone.ts).
      if (!isPortalGoneError(error)) {
        closePortal();
        raisePortalError({
          type: 'PORTAL_OPENING_FAILED',
          title: CHAIN_MESSAGES.portalFailed,
          message: error.errorMessage,
          href: window.location.hash.replace(/^#/, '') || '/',
          error,
          domainId: String(d),
          portalId: String(p),
          branch,
        });
      }
    } finally {
      overlay.hide();
    }
  }
  await refreshWorkspaceViews(queryClient, d, p);
  return ok;
}
