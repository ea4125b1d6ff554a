import { useQuery, useQueryClient } from '@tanstack/react-query';
import { portalApi, portalKeys } from '../../api/portal';
import { PermissionView } from '../../ui/Restricted';
import { usePortalParams } from '../../core/usePortalParams';
import { LoadError, Loading, OpeningPortal } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { PresenceBar } from '../presence';
import { UpstreamSettings } from '../upstream';
import { SETTINGS_FILE } from './model';
import { SettingsForm } from './SettingsForm';

/**
 * Portal Settings (spec 3 §2 portal module child 'settings'): portal.json of the user's
 * workspace, or the settings Portalwright keeps for a portal imported from a git URL (the
 * intro says which).
 */
export default function SettingsScreen() {
  const { domain, portal, branch, opened } = usePortalParams();
  return (
    <PermissionView permission="portal_settings_read">
      {opened ? (
        <SettingsView key={`${domain}/${portal}/${branch}`} domain={domain} portal={portal} branch={branch} />
      ) : (
        <OpeningPortal title="Portal Settings" />
      )}
    </PermissionView>
  );
}

function SettingsView({ domain, portal, branch }: { domain: string; portal: string; branch: string }) {
  const queryClient = useQueryClient();
  // The one place that knows the version of portal.json: the query holds {data, version}. Its key
  // is under the workspace's (core/workspaceRefresh.ts), so Reload Now, reverts, Reset
  // and branch switches reach it; staleTime 0: coming back to the screen always reads the file.
  const queryKey = portalKeys.settings(domain, portal, branch);
  const queryFn = () => portalApi.settings(domain, portal);
  const settings = useQuery({ queryKey, queryFn, staleTime: 0 });
  const reload = () => queryClient.fetchQuery({ queryKey, queryFn, staleTime: 0 });
  return (
    <PageFrame title="Portal Settings" intro={settingsHome(settings.data?.data.storedIn, branch)}>
      <PresenceBar domain={domain} portal={portal} path={SETTINGS_FILE} />
      {settings.isPending && <Loading label="Loading settings" />}
      {settings.isError && !settings.data && (
        <LoadError
          title="Failed to load the portal settings"
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      )}
      {settings.data && (
        <SettingsForm domain={domain} portal={portal} branch={branch} server={settings.data} reload={reload} />
      )}
      <UpstreamSettings d={domain} p={portal} />
    </PageFrame>
  );
}

/** Where the settings live, in words. */
export function settingsHome(storedIn: string | undefined, branch: string): string {
  return storedIn === 'PORTALWRIGHT'
    ? 'Settings are kept by Portalwright, not in the repository: they apply to every branch and are never committed or pushed to the git host.'
    : `Settings are in portal.json, versioned with the branch (your workspace on ${branch}).`;
}
