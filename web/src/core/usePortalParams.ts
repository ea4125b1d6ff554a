import { useParams } from 'react-router';
import { branchFromUrl } from '../api/portal';
import { ACTIVE_BRANCH_SEGMENT, DEFAULT_LANGUAGE } from './portalChain';
import { useSelectionStore } from './selectionStore';

/**
 * Domain, portal, branch ('/' restored) and language of a portal-module route. `opened` tells
 * whether the selection chain has opened this portal (the user's workspace exists and is on
 * `branch`); `branch` is the opened branch when the URL says '_' (the active branch).
 */
export function usePortalParams() {
  const {
    domain = '',
    portal = '',
    branch: segment = ACTIVE_BRANCH_SEGMENT,
    language = DEFAULT_LANGUAGE,
  } = useParams();
  const urlBranch = segment === ACTIVE_BRANCH_SEGMENT ? null : branchFromUrl(segment);
  const selected = useSelectionStore((s) => (s.portal && String(s.portal.id) === portal ? s.branch : null));
  const opened = selected !== null && (urlBranch === null || urlBranch === selected);
  return { domain, portal, branch: urlBranch ?? selected ?? '', language, opened };
}
