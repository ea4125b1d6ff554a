import Box from '@mui/material/Box';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { matchPath, useLocation, useNavigate } from 'react-router';
import { branchFromUrl, INACTIVE_GROUP, portalApi } from '../../api/portal';
import { paths, patterns } from '../../core/paths';
import { showHttpError, toasts } from '../../core/toastService';
import { PortalErrorScreen } from '../errors/PortalErrorScreen';
import { overlay } from '../../core/overlayStore';
import { usePermission } from '../../core/usePermission';
import { useSessionStore } from '../../core/sessionStore';
import { LimitedModeDialog } from './LimitedModeDialog';
import { confirmLimitedMode } from './limitedMode';
import {
  ACTIVE_BRANCH_SEGMENT,
  DEFAULT_LANGUAGE,
  onPortalEvent,
  parsePortalRoute,
  portalRoutePath,
} from '../../core/portalChain';
import { resolveSelection } from './resolveSelection';
import { followSitemapQuery } from './sitemapStage';
import { useClearErrorsOnLeave } from './clearErrorsOnLeave';
import { clearPortalError, portalErrorActions, usePortalErrorStore } from '../../core/portalError';
import { onPortalGone, portalGoneMessage } from '../../core/portalGone';
import { closePortal, useSelectionStore } from '../../core/selectionStore';
import { isWorkspaceQueryKey, refreshWorkspaceViews } from '../../core/workspaceRefresh';

export const RESET_MESSAGE = 'Resetting Workspace';

const pageTitleOf = (rest: string) => {
  const first = rest.split('/')[0] || 'dashboard';
  const words = first.replace(/[-_]+/g, ' ');
  return `Portal ${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};

/**
 * Resolves the portal part of the selection from the URL (the chain's state resolver, spec 1
 * §4.2), opens a domain's only portal, and shows the portal error screen and the limited-mode
 * overlay. Mounted once in the signed-in shell (side navigation).
 */
export function PortalChainHost() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userId = useSessionStore((s) => s.user?.id);
  const canReadBranches = usePermission('branch:r');
  const canReadPortals = usePermission('portal:r');
  const error = usePortalErrorStore((s) => s.error);
  const [nonce, setNonce] = useState(0);
  const [resync, setResync] = useState(0);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const latest = useRef('');
  const autoOpened = useRef<string | null>(null);

  const { pathname, search } = location;
  const currentPath = useRef(pathname);
  currentPath.current = pathname;

  // Before the chain below runs for the new location (it waits while an error is up).
  useClearErrorsOnLeave();

  useEffect(() => {
    const route = parsePortalRoute(pathname);
    if (!route) return;
    const key = `${pathname}#${nonce}#${resync}`;
    latest.current = key;
    queue.current = queue.current
      .then(async () => {
        if (latest.current !== key || usePortalErrorStore.getState().error) return;
        await resolveSelection(route, {
          queryClient,
          search,
          canReadBranches,
          confirmLimited: (portal) => confirmLimitedMode(portal, userId),
          replaceUrl: (path) => void navigate(path, { replace: true }),
          leave: (path) => void navigate(path),
          href: `${pathname}${search}`,
        });
      })
      .catch((cause: unknown) => console.error('portal selection failed', cause));
  }, [pathname, search, nonce, resync, canReadBranches, userId, navigate, queryClient]);

  // The selection's sitemap follows the query cache (a page selector's reload, a workspace refresh).
  useEffect(() => followSitemapQuery(queryClient), [queryClient]);

  // A reopen of the workspace on the URL's branch (Reload Now, Revert, Reset, …) clears the
  // sitemap and page without a change of URL: the chain runs again for the URL, loading the
  // sitemap and taking the page from a pages route. (A branch switch navigates instead.)
  useEffect(
    () =>
      useSelectionStore.subscribe((state, prev) => {
        const cleared =
          (prev.sitemapFor !== null && state.sitemapFor === null) || (prev.page !== null && state.page === null);
        if (!cleared || !state.portal || !state.branch || usePortalErrorStore.getState().error) return;
        const route = parsePortalRoute(currentPath.current);
        if (!route || route.portalId !== String(state.portal.id)) return;
        const segment = route.branchSegment;
        if (segment && segment !== ACTIVE_BRANCH_SEGMENT && branchFromUrl(segment) !== state.branch) return;
        setResync((n) => n + 1);
      }),
    [],
  );

  // Opening a portal may move its workspace (a fast-forward, another branch): every view
  // derived from it loads again (core/workspaceRefresh.ts). Reload Now, reverts,
  // Reset and branch switches call workspaceChanged themselves.
  useEffect(
    () =>
      onPortalEvent((event) => {
        if (event !== 'portalOpened') return;
        const { domain, portal } = useSelectionStore.getState();
        if (domain && portal) void refreshWorkspaceViews(queryClient, domain.id, portal.id);
      }),
    [queryClient],
  );

  // The open portal was deleted: leave it, say so, and stop everything that polled it. A
  // screen of that portal gives way to the domain dashboard.
  useEffect(
    () =>
      onPortalGone(({ domainId, portalId, name }) => {
        closePortal();
        const predicate = (q: { queryKey: readonly unknown[] }) => isWorkspaceQueryKey(q.queryKey, domainId, portalId);
        void queryClient.cancelQueries({ predicate });
        queryClient.removeQueries({ predicate });
        toasts.warning(portalGoneMessage(name), 'Portal deleted', { timeOut: 10_000, closeButton: true });
        if (parsePortalRoute(currentPath.current)?.portalId === portalId)
          void navigate(paths.domainDashboard(domainId), { replace: true });
      }),
    [queryClient, navigate],
  );

  // A domain with exactly one portal outside 'Inactive Portals' opens it (spec 1 §2.1).
  useEffect(() => {
    const domainId = matchPath({ path: `/${patterns.domainDashboard}`, end: true }, pathname)?.params.domain;
    if (!domainId || !canReadPortals || autoOpened.current === domainId) return;
    autoOpened.current = domainId;
    let cancelled = false;
    portalApi
      .categorized(domainId)
      .then((categories) => {
        const active = categories.filter((c) => c.name !== INACTIVE_GROUP).flatMap((c) => c.children);
        if (!cancelled && active.length === 1) void navigate(paths.portal(domainId, active[0].id));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [pathname, canReadPortals, navigate]);

  const offered = error ? portalErrorActions(error) : [];
  const domainDashboard = error ? paths.domainDashboard(error.domainId) : paths.root();
  const rerun = () => {
    clearPortalError();
    closePortal();
    setNonce((n) => n + 1);
  };

  return (
    <>
      <LimitedModeDialog />
      {error && (
        <Box
          data-testid="portal-error"
          sx={{
            position: 'fixed',
            inset: 0,
            zIndex: (t) => t.zIndex.modal - 1,
            bgcolor: 'background.default',
            overflow: 'auto',
          }}
        >
          <PortalErrorScreen
            pageTitle={pageTitleOf(parsePortalRoute(pathname)?.rest ?? '')}
            title={error.type === 'PORTAL_OPENING_FAILED' ? undefined : error.title}
            message={error.message}
            error={error.error}
            actions={{
              reset: offered.includes('reset')
                ? () => {
                    const { domainId, portalId, branch } = error;
                    overlay.show(RESET_MESSAGE);
                    portalApi
                      .reset(domainId, portalId, branch ?? 'master')
                      .then((status) => {
                        overlay.hide();
                        void refreshWorkspaceViews(queryClient, domainId, portalId);
                        rerun();
                        // The server puts the workspace where it can: the branch asked for, or the
                        // portal's active branch when that one was deleted. Go to that branch's dashboard.
                        const language = parsePortalRoute(pathname)?.language ?? DEFAULT_LANGUAGE;
                        const target = status?.branch || branch || 'master';
                        void navigate(portalRoutePath(domainId, portalId, target, language, 'dashboard'));
                      })
                      .catch((cause: unknown) => {
                        overlay.hide();
                        showHttpError(cause, 'Could not reset the workspace');
                      });
                  }
                : undefined,
              retry: offered.includes('retry') ? rerun : undefined,
              continue: offered.includes('continue')
                ? () => {
                    clearPortalError();
                    void navigate('/');
                  }
                : undefined,
              cancel: offered.includes('cancel')
                ? () => {
                    clearPortalError();
                    void navigate(domainDashboard);
                  }
                : undefined,
            }}
          />
        </Box>
      )}
    </>
  );
}
