/**
 * The open portal was deleted (issue 8 item 0): a call about it answers 404 PORTAL_NOT_FOUND
 * (or DOMAIN_NOT_FOUND when its domain went with it). The app then leaves the portal, tells
 * the user it no longer exists and stops everything that polled it: closing the portal
 * disables the workspace queries, the local-commits poller and the file watcher, and the
 * portal's cached queries are dropped.
 */
import type { ApiError } from '../api/errors';
import { authEvents, type NotFoundEvent } from '../api/client';
import type { Id } from '../api/portal';
import { useSelectionStore } from './selectionStore';

/** The error codes that mean the portal (or its domain) does not exist any more. */
export const PORTAL_GONE_CODES = ['PORTAL_NOT_FOUND', 'DOMAIN_NOT_FOUND'] as const;

export const portalGoneMessage = (name: string) =>
  `The portal ${name} no longer exists: it was deleted. You have left it.`;

export function isPortalGoneError(error: ApiError): boolean {
  return error.httpStatus === 404 && PORTAL_GONE_CODES.some((code) => error.hasCode(code));
}

/**
 * Whether an API path is about portal `p` of domain `d`: its segments hold `d` then `p`
 * (portal/{d}/{p}/…, settings/{d}/{p}, portal/load/{d}/{p}/…, portal_branch/…/{d}/{p}).
 */
export function isPortalPath(path: string, d: Id, p: Id): boolean {
  const segments = path
    .split('?')[0]
    .split('/')
    .map((s) => decodeURIComponent(s));
  for (let i = 0; i + 1 < segments.length; i++) {
    if (segments[i] === String(d) && segments[i + 1] === String(p)) return true;
  }
  return false;
}

export interface GonePortal {
  domainId: string;
  portalId: string;
  name: string;
}

/** The open portal when a 404 says it is gone; null for any other 404. */
export function gonePortalOf(event: NotFoundEvent): GonePortal | null {
  const { domain, portal } = useSelectionStore.getState();
  if (!domain || !portal || !isPortalGoneError(event.error)) return null;
  if (!isPortalPath(event.path, domain.id, portal.id)) return null;
  return { domainId: String(domain.id), portalId: String(portal.id), name: portal.name };
}

/** Calls `onGone` when a call about the open portal says it no longer exists. Returns the unsubscribe. */
export function onPortalGone(onGone: (portal: GonePortal) => void): () => void {
  return authEvents.on('notFound', (event) => {
    const gone = gonePortalOf(event);
    if (gone) onGone(gone);
  });
}
