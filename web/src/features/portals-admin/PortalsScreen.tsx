import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { portalApi, portalKeys, type Category, type Portal } from '../../api/portal';
import { usePermission } from '../../app/permissions/usePermission';
import { PermissionView, Restricted } from '../../app/permissions/Restricted';
import { toasts } from '../../app/toasts/toastService';
import { plural } from '../../lib/format';
import { alphanumericNameError } from '../admin/validation';
import { useAction } from '../../ui/useAction';
import { PageFrame } from '../../ui/PageFrame';
import { LoadError } from '../../ui/Loading';
import { DataTable, type Column } from '../../ui/DataTable';
import { CreatePortalDialog, type CreateSource } from './CreatePortalDialog';
import { formatDateTime } from '../../lib/format';
import { CommentDialog, RuleNameDialog } from './shared';
import { lookupLabel, useLookup, type LookupEntry } from '../../api/lookup';

type StatusAction = 'activate' | 'deactivate' | 'delete';

const STATUS_ACTIONS: Record<
  StatusAction,
  { title: string; submit: string; done: (name: string) => string; failed: string; text: (name: string) => string }
> = {
  activate: {
    title: 'Activate Portal',
    submit: 'Activate',
    done: (n) => `Portal ${n} activated.`,
    failed: 'Failed to activate portal',
    text: (n) => `Activate ${n}? Say why; the comment is kept in the audit history.`,
  },
  deactivate: {
    title: 'Deactivate Portal',
    submit: 'Deactivate',
    done: (n) => `Portal ${n} deactivated.`,
    failed: 'Failed to deactivate portal',
    text: (n) => `Deactivate ${n}? It moves to Inactive Portals. Say why; the comment is kept in the audit history.`,
  },
  delete: {
    title: 'Delete Portal',
    submit: 'Delete',
    done: (n) => `Portal ${n} deleted.`,
    failed: 'Failed to delete portal',
    text: (n) =>
      `Delete ${n}? Its repository, branches and every workspace are removed. This cannot be undone. Say why; the comment is kept in the audit history.`,
  },
};

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
      <MoveDialog
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

interface RowActions {
  types: LookupEntry[];
  scopes: LookupEntry[];
  onStatus: (portal: Portal, action: StatusAction) => void;
  onClone: (portal: Portal) => void;
  onMove: (portal: Portal) => void;
  cloneReady: boolean;
}

const isActive = (portal: Portal) => portal.status === 'active' && !portal.deactivated;

/** The columns of the portal list: facts, then the actions the user holds. */
function portalColumns({ types, scopes, onStatus, onClone, onMove, cloneReady }: RowActions): Array<Column<Portal>> {
  return [
    { id: 'name', header: 'Name', cell: (p) => p.name, sortValue: (p) => p.name, rowHeader: true },
    { id: 'type', header: 'Type', cell: (p) => lookupLabel(types, p.type), sortValue: (p) => p.type },
    { id: 'scope', header: 'Scope', cell: (p) => lookupLabel(scopes, p.scope), sortValue: (p) => p.scope },
    { id: 'category', header: 'Category', cell: (p) => p.category || '—', sortValue: (p) => p.category },
    {
      id: 'status',
      header: 'Status',
      sortValue: (p) => (isActive(p) ? 0 : 1),
      cell: (p) => (
        <Chip
          size="small"
          label={isActive(p) ? 'Active' : 'Inactive'}
          color={isActive(p) ? 'success' : 'default'}
          variant={isActive(p) ? 'filled' : 'outlined'}
        />
      ),
    },
    {
      id: 'lastModified',
      header: 'Last modified',
      sortValue: (p) => p.lastModified,
      cell: (p) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.lastModified)}</Box>,
    },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (portal) => (
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', whiteSpace: 'nowrap' }}>
          {isActive(portal) ? (
            <Restricted permission="portal_deactivate">
              <Button
                size="small"
                aria-label={`Deactivate ${portal.name}`}
                onClick={() => onStatus(portal, 'deactivate')}
              >
                Deactivate
              </Button>
            </Restricted>
          ) : (
            <Restricted permission="portal_activate">
              <Button size="small" aria-label={`Activate ${portal.name}`} onClick={() => onStatus(portal, 'activate')}>
                Activate
              </Button>
            </Restricted>
          )}
          <Restricted permission="portal_create">
            <Button
              size="small"
              aria-label={`Clone ${portal.name}`}
              onClick={() => onClone(portal)}
              disabled={!cloneReady}
            >
              Clone
            </Button>
          </Restricted>
          <Restricted permission="category_link">
            <Button size="small" aria-label={`Move to category: ${portal.name}`} onClick={() => onMove(portal)}>
              Move to category
            </Button>
          </Restricted>
          <Restricted permission="portal_delete">
            <Button
              size="small"
              color="error"
              aria-label={`Delete ${portal.name}`}
              onClick={() => onStatus(portal, 'delete')}
            >
              Delete
            </Button>
          </Restricted>
        </Stack>
      ),
    },
  ];
}

function MoveDialog({
  domain,
  portal,
  categories,
  onClose,
  onMoved,
}: {
  domain: string;
  portal: Portal | null;
  categories: Category[];
  onClose: () => void;
  onMoved: () => void;
}) {
  const [target, setTarget] = useState('');
  const [shownFor, setShownFor] = useState<Portal | null>(null);
  if (portal !== shownFor) {
    // A new portal to move: start from its current category.
    setShownFor(portal);
    setTarget(portal?.categoryId != null ? String(portal.categoryId) : '');
  }
  const current = portal?.categoryId != null ? String(portal.categoryId) : '';

  const move = useAction({
    action: async ({ p, to }: { p: Portal; to: string }) => {
      if (to === '') {
        if (p.categoryId != null) await portalApi.unlinkPortals(domain, p.categoryId, [p.id]);
      } else {
        await portalApi.linkPortals(domain, Number(to), [p.id]);
      }
    },
    success: (_, { p, to }) => {
      const name = categories.find((c) => String(c.id) === to)?.name;
      return name ? `${p.name} moved to ${name}.` : `${p.name} removed from its category.`;
    },
    failure: 'Could not move the portal',
    onSuccess: onMoved,
  });

  return (
    <Dialog open={portal !== null} onClose={() => !move.pending && onClose()} fullWidth maxWidth="xs">
      <DialogTitle>Move to category</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>{portal?.name}</Typography>
        <TextField
          select
          label="Category"
          size="small"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          fullWidth
        >
          <MenuItem value="">
            <em>No category</em>
          </MenuItem>
          {categories.map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={move.pending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={move.pending || target === current}
          onClick={() => portal && move.run({ p: portal, to: target })}
        >
          Move
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function CategoriesCard({
  domain,
  categories,
  portals,
  onChanged,
}: {
  domain: string;
  categories: Category[];
  portals: Portal[];
  onChanged: () => Promise<unknown>;
}) {
  const [dialog, setDialog] = useState<{ mode: 'create' } | { mode: 'rename'; category: Category } | null>(null);

  const save = useAction({
    action: async ({ name, category }: { name: string; category?: Category }) => {
      if (category) await portalApi.renameCategory(domain, category.id, name);
      else await portalApi.createCategory(domain, name);
    },
    success: (_, { name, category }) => (category ? `Category renamed to ${name}.` : `Category ${name} created.`),
    failure: ({ category }) => (category ? 'Could not rename the category' : 'Could not create the category'),
    onSuccess: async () => {
      setDialog(null);
      await onChanged();
    },
  });

  const remove = useAction({
    action: (category: Category) => portalApi.deleteCategory(domain, category.id),
    success: (_, category) => `Category ${category.name} deleted.`,
    failure: 'Could not delete the category',
    onSuccess: onChanged,
  });

  async function confirmDelete(category: Category) {
    const question = `Delete the category ${category.name}? Its portals become uncategorized.`;
    if (await toasts.prompt(question, { title: 'Delete Category' })) remove.run(category);
  }

  const count = (c: Category) => portals.filter((p) => p.categoryId === c.id).length;

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            Categories
          </Typography>
          <Restricted permission="category_create">
            <Button variant="outlined" onClick={() => setDialog({ mode: 'create' })}>
              Create Category
            </Button>
          </Restricted>
        </Stack>
        {categories.length === 0 ? (
          <Typography color="text.secondary">No categories yet.</Typography>
        ) : (
          <List dense aria-label="Categories">
            {categories.map((c) => (
              <ListItem
                key={c.id}
                divider
                secondaryAction={
                  <Stack direction="row" spacing={1}>
                    <Restricted permission="category_write">
                      <Button
                        size="small"
                        aria-label={`Rename category ${c.name}`}
                        onClick={() => setDialog({ mode: 'rename', category: c })}
                      >
                        Rename
                      </Button>
                    </Restricted>
                    <Restricted permission="category_delete">
                      <Button
                        size="small"
                        color="error"
                        aria-label={`Delete category ${c.name}`}
                        disabled={remove.pending}
                        onClick={() => void confirmDelete(c)}
                      >
                        Delete
                      </Button>
                    </Restricted>
                  </Stack>
                }
              >
                <ListItemText primary={c.name} secondary={plural(count(c), 'portal')} />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
      <RuleNameDialog
        open={dialog !== null}
        title={dialog?.mode === 'rename' ? 'Rename Category' : 'Create Category'}
        label="Category name"
        submitLabel={dialog?.mode === 'rename' ? 'Rename' : 'Create'}
        initialName={dialog?.mode === 'rename' ? dialog.category.name : ''}
        validate={(name) => alphanumericNameError(name) ?? null}
        onSubmit={(name) => save.submit({ name, category: dialog?.mode === 'rename' ? dialog.category : undefined })}
        onClose={() => setDialog(null)}
      />
    </Card>
  );
}
