import Alert from '@mui/material/Alert';
import type { ReactNode } from 'react';
import { isUniversalPortal } from '../../core/menus';
import { PermissionView } from '../../ui/Restricted';
import { useSelectionStore } from '../../core/selectionStore';
import { Loading, OPENING_PORTAL } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { usePortalParams } from '../../core/usePortalParams';
import { LOADABLE_MESSAGES as MSG } from './messages';

export interface LoadablePortal {
  domain: string;
  portal: string;
  branch: string;
  language: string;
  portalName: string;
}

/**
 * The frame of a loadable screen: the permission, the portal opened by the selection chain,
 * and the notice for portals that are not UNIVERSAL (their menu entries are hidden).
 */
export function LoadableScreen({
  title,
  permission,
  intro,
  children,
}: {
  title: string;
  permission: string;
  intro?: ReactNode;
  children: (portal: LoadablePortal) => ReactNode;
}) {
  const { domain, portal, branch, language, opened } = usePortalParams();
  const selected = useSelectionStore((s) => s.portal);
  let body: ReactNode;
  if (!opened || !selected) body = <Loading label={OPENING_PORTAL} />;
  else if (!isUniversalPortal(selected))
    body = (
      <Alert severity="info" role="alert">
        {MSG.notUniversal}
      </Alert>
    );
  else body = children({ domain, portal, branch, language, portalName: selected.name });
  return (
    <PermissionView permission={permission}>
      <PageFrame title={title} intro={intro}>
        {body}
      </PageFrame>
    </PermissionView>
  );
}
