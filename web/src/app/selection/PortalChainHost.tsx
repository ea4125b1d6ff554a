import Box from '@mui/material/Box';
import { useEffect, useRef, useState } from 'react';
import { RELOAD_WORKSPACE_EVENT } from '../../features/realtime';
import { matchPath, useLocation, useNavigate } from 'react-router';
import { INACTIVE_GROUP, portalApi } from '../../api/portal';
import { showHttpError } from '../toasts/toastService';
import { PortalErrorScreen } from '../errors/PortalErrorScreen';
import { overlay } from '../overlay/overlayStore';
import { usePermission } from '../permissions/usePermission';
import { useSessionStore } from '../session/sessionStore';
import { LimitedModeDialog } from './LimitedModeDialog';
import { confirmLimitedMode } from './limitedMode';
import { parsePortalRoute, runPortalChain } from './portalChain';
import { clearPortalError, portalErrorActions, usePortalErrorStore } from './portalError';
import { closePortal } from './selectionStore';

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
  const userId = useSessionStore((s) => s.user?.id);
  const canReadBranches = usePermission('branch:r');
  const canReadPortals = usePermission('portal:r');
  const error = usePortalErrorStore((s) => s.error);
  const [nonce, setNonce] = useState(0);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const latest = useRef('');
  const autoOpened = useRef<string | null>(null);

  const { pathname, search } = location;

  useEffect(() => {
    const route = parsePortalRoute(pathname);
    if (!route) return;
    const key = `${pathname}#${nonce}`;
    latest.current = key;
    queue.current = queue.current
      .then(async () => {
        if (latest.current !== key || usePortalErrorStore.getState().error) return;
        await runPortalChain(route, {
          canReadBranches,
          confirmLimited: (portal) => confirmLimitedMode(portal, userId),
          replaceUrl: (path) => void navigate(path, { replace: true }),
          leave: (path) => void navigate(path),
          href: `${pathname}${search}`,
        });
      })
      .catch((cause: unknown) => console.error('portal selection failed', cause));
  }, [pathname, search, nonce, canReadBranches, userId, navigate]);

  // 'Reload Now' after another user's commit: open the workspace again (it fast-forwards).
  useEffect(() => {
    const reload = () => {
      closePortal();
      setNonce((n) => n + 1);
    };
    window.addEventListener(RELOAD_WORKSPACE_EVENT, reload);
    return () => window.removeEventListener(RELOAD_WORKSPACE_EVENT, reload);
  }, []);

  // A domain with exactly one portal outside 'Inactive Portals' opens it (spec 1 §2.1).
  useEffect(() => {
    const domainId = matchPath({ path: '/domain/:domain/dashboard', end: true }, pathname)?.params.domain;
    if (!domainId || !canReadPortals || autoOpened.current === domainId) return;
    autoOpened.current = domainId;
    let cancelled = false;
    portalApi
      .categorized(domainId)
      .then((categories) => {
        const active = categories.filter((c) => c.name !== INACTIVE_GROUP).flatMap((c) => c.children);
        if (!cancelled && active.length === 1)
          void navigate(`/domain/${encodeURIComponent(domainId)}/portal/${encodeURIComponent(String(active[0].id))}`);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [pathname, canReadPortals, navigate]);

  const offered = error ? portalErrorActions(error) : [];
  const domainDashboard = error ? `/domain/${encodeURIComponent(error.domainId)}/dashboard` : '/';
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
                      .then(() => {
                        overlay.hide();
                        rerun();
                        const base = `/domain/${encodeURIComponent(domainId)}/portal/${encodeURIComponent(portalId)}`;
                        void navigate(branch ? `${base}/branch/${branch.replace(/\//g, ':')}` : base);
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
