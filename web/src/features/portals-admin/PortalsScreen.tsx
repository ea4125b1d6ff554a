import Button from '@mui/material/Button';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useLookup } from '../../api/lookup';
import { portalApi, portalKeys, type Portal } from '../../api/portal';
import { PermissionView, Restricted } from '../../ui/Restricted';
import { usePermission } from '../../core/usePermission';
import { DataTable } from '../../ui/DataTable';
import { LoadError } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { useAction } from '../../ui/useAction';
import { CategoriesCard } from './CategoriesCard';
import { CreatePortalDialog } from './CreatePortalDialog';
import { STATUS_ACTIONS, type CreateSource, type StatusAction } from './model';
import { MoveToCategoryDialog } from './MoveToCategoryDialog';
import { portalColumns } from './portalColumns';
import { CommentDialog } from './shared';

/** Manage Portals (spec 3 §2 domain/{domain}/portal-management). */
export default function PortalsScreen() {
  const { domain = '' } = useParams();
  return (
    <PermissionView permission="portal:r">
      <PortalsView key={domain} domain={domain} />
    </PermissionView>
  );
}

function PortalsView({ domain }: { domain: string }) {
  const queryClient = useQueryClient();
  const portals = useQuery({ queryKey: portalKeys.managed(domain), queryFn: () => portalApi.list(domain) });
  const categories = useQuery({ queryKey: portalKeys.categories(domain), queryFn: () => portalApi.categories(domain) });
  const canCreate = usePermission('portal_create');
  const types = useLookup('PortalType');
  const scopes = useLookup('ScopeType');
  const templates = useQuery({
    queryKey: portalKeys.templates(domain),
    queryFn: () => portalApi.templates(domain),
    enabled: canCreate,
  });
  const [create, setCreate] = useState<{ source: CreateSource; cloneId?: number } | null>(null);
  const [statusAction, setStatusAction] = useState<{ action: StatusAction; portal: Portal } | null>(null);
  const [moving, setMoving] = useState<Portal | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: portalKeys.managed(domain) }),
      queryClient.invalidateQueries({ queryKey: portalKeys.categories(domain) }),
      // The portal selector (features/portal) lists the domain's portals under its own key.
      queryClient.invalidateQueries({ queryKey: portalKeys.domainPortals(domain) }),
    ]);

  const status = useAction({
    action: async ({ action, portal, comment }: { action: StatusAction; portal: Portal; comment: string }) => {
      if (action === 'activate') await portalApi.activate(domain, portal.id, comment);
      else if (action === 'deactivate') await portalApi.deactivate(domain, portal.id, comment);
      else await portalApi.remove(domain, portal.id, comment);
    },
    success: (_, { action, portal }) => STATUS_ACTIONS[action].done(portal.name),
    failure: ({ action }) => STATUS_ACTIONS[action].failed,
    onSuccess: async () => {
      setStatusAction(null);
      await refresh();
    },
  });

  const list = portals.data ?? [];

  return (
    <PageFrame
      title="Manage Portals"
      actions={
        <Restricted permission="portal_create">
          <Button
            variant="contained"
            onClick={() => setCreate({ source: 'template' })}
            disabled={templates.isPending || !portals.isSuccess}
          >
            Create Portal
          </Button>
        </Restricted>
      }
    >
      <DataTable
        label="Portals"
        columns={portalColumns({
          types,
          scopes,
          onStatus: (portal, action) => setStatusAction({ action, portal }),
          onClone: (portal) => setCreate({ source: 'clone', cloneId: portal.id }),
          onMove: setMoving,
          cloneReady: !templates.isPending,
        })}
        rows={portals.data}
        rowKey={(p) => p.id}
        loading={portals.isPending}
        loadingText="Loading portals"
        error={portals.error}
        errorTitle="Failed to load portals"
        onRetry={() => void portals.refetch()}
        emptyText="This domain has no portals yet."
      />
      {categories.isError && (
        <LoadError
          title="Failed to load categories"
          error={categories.error}
          onRetry={() => void categories.refetch()}
        />
      )}
      {categories.isSuccess && (
        <CategoriesCard domain={domain} categories={categories.data} portals={list} onChanged={refresh} />
      )}

      <CreatePortalDialog
        open={create !== null}
        domain={domain}
        templates={templates.data ?? []}
        portals={list}
        categories={categories.data ?? []}
        initialSource={create?.source}
        initialCloneId={create?.cloneId}
        onCreated={() => {
          setCreate(null);
          void refresh();
        }}
        onClose={() => setCreate(null)}
      />
      <CommentDialog
        open={statusAction !== null}
        title={statusAction ? STATUS_ACTIONS[statusAction.action].title : ''}
        text={statusAction ? STATUS_ACTIONS[statusAction.action].text(statusAction.portal.name) : ''}
        submitLabel={statusAction ? STATUS_ACTIONS[statusAction.action].submit : ''}
        danger={statusAction?.action !== 'activate'}
        onSubmit={(comment) => (statusAction ? status.submit({ ...statusAction, comment }) : Promise.resolve())}
        onClose={() => setStatusAction(null)}
      />
      <MoveToCategoryDialog
        domain={domain}
        portal={moving}
        categories={categories.data ?? []}
        onClose={() => setMoving(null)}
        onMoved={() => {
          setMoving(null);
          void refresh();
        }}
      />
    </PageFrame>
  );
}
