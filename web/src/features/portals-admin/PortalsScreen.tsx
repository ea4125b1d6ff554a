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
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { portalApi, type Category, type Portal } from '../../api/portal';
import { usePermission } from '../../app/permissions/usePermission';
import { PermissionView, Restricted } from '../../app/permissions/Restricted';
import { showHttpError, toasts } from '../../app/toasts/toastService';
import { alphanumeric } from '../../lib/validation';
import { AdminPage, LoadError, Loading } from '../admin/AdminPage';
import { CreatePortalDialog, type CreateSource } from './CreatePortalDialog';
import {
  CommentDialog,
  failureToast,
  formatDateTime,
  keys,
  label,
  RuleNameDialog,
  SCOPE_LABELS,
  TYPE_LABELS,
  workspaceKeys,
} from './shared';

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
  const portals = useQuery({ queryKey: keys.portals(domain), queryFn: () => portalApi.list(domain) });
  const categories = useQuery({ queryKey: keys.categories(domain), queryFn: () => portalApi.categories(domain) });
  const canCreate = usePermission('portal_create');
  const templates = useQuery({
    queryKey: keys.templates(domain),
    queryFn: () => portalApi.templates(domain),
    enabled: canCreate,
  });
  const [create, setCreate] = useState<{ source: CreateSource; cloneId?: number } | null>(null);
  const [statusAction, setStatusAction] = useState<{ action: StatusAction; portal: Portal } | null>(null);
  const [moving, setMoving] = useState<Portal | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.portals(domain) }),
      queryClient.invalidateQueries({ queryKey: keys.categories(domain) }),
      // The portal selector (features/portal) lists the domain's portals under its own key.
      queryClient.invalidateQueries({ queryKey: workspaceKeys.domainPortals(domain) }),
    ]);

  const status = useMutation({
    mutationFn: async ({ action, portal, comment }: { action: StatusAction; portal: Portal; comment: string }) => {
      if (action === 'activate') await portalApi.activate(domain, portal.id, comment);
      else if (action === 'deactivate') await portalApi.deactivate(domain, portal.id, comment);
      else await portalApi.remove(domain, portal.id, comment);
    },
    onSuccess: async (_, { action, portal }) => {
      toasts.success(STATUS_ACTIONS[action].done(portal.name), 'SUCCESS');
      setStatusAction(null);
      await refresh();
    },
    onError: (error, { action }) => failureToast(STATUS_ACTIONS[action].failed, error),
  });

  const list = portals.data ?? [];

  return (
    <AdminPage
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
      {portals.isPending && <Loading label="Loading portals" />}
      {portals.isError && (
        <LoadError title="Failed to load portals" error={portals.error} onRetry={() => void portals.refetch()} />
      )}
      {portals.isSuccess && (
        <Card variant="outlined">
          <TableContainer>
            <Table size="small" aria-label="Portals">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Type</TableCell>
                  <TableCell>Scope</TableCell>
                  <TableCell>Category</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Last modified</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={7}>
                      <Typography color="text.secondary">This domain has no portals yet.</Typography>
                    </TableCell>
                  </TableRow>
                )}
                {list.map((p) => (
                  <PortalRow
                    key={p.id}
                    portal={p}
                    onStatus={(action) => setStatusAction({ action, portal: p })}
                    onClone={() => setCreate({ source: 'clone', cloneId: p.id })}
                    onMove={() => setMoving(p)}
                    cloneReady={!templates.isPending}
                  />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Card>
      )}
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
        busy={status.isPending}
        onSubmit={(comment) => statusAction && status.mutate({ ...statusAction, comment })}
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
    </AdminPage>
  );
}

function PortalRow({
  portal,
  onStatus,
  onClone,
  onMove,
  cloneReady,
}: {
  portal: Portal;
  onStatus: (action: StatusAction) => void;
  onClone: () => void;
  onMove: () => void;
  cloneReady: boolean;
}) {
  const active = portal.status === 'active' && !portal.deactivated;
  return (
    <TableRow hover>
      <TableCell component="th" scope="row">
        {portal.name}
      </TableCell>
      <TableCell>{label(TYPE_LABELS, portal.type)}</TableCell>
      <TableCell>{label(SCOPE_LABELS, portal.scope)}</TableCell>
      <TableCell>{portal.category || '—'}</TableCell>
      <TableCell>
        <Chip
          size="small"
          label={active ? 'Active' : 'Inactive'}
          color={active ? 'success' : 'default'}
          variant={active ? 'filled' : 'outlined'}
        />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(portal.lastModified)}</TableCell>
      <TableCell align="right">
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end', whiteSpace: 'nowrap' }}>
          {active ? (
            <Restricted permission="portal_deactivate">
              <Button size="small" aria-label={`Deactivate ${portal.name}`} onClick={() => onStatus('deactivate')}>
                Deactivate
              </Button>
            </Restricted>
          ) : (
            <Restricted permission="portal_activate">
              <Button size="small" aria-label={`Activate ${portal.name}`} onClick={() => onStatus('activate')}>
                Activate
              </Button>
            </Restricted>
          )}
          <Restricted permission="portal_create">
            <Button size="small" aria-label={`Clone ${portal.name}`} onClick={onClone} disabled={!cloneReady}>
              Clone
            </Button>
          </Restricted>
          <Restricted permission="category_link">
            <Button size="small" aria-label={`Move ${portal.name} to category`} onClick={onMove}>
              Move to category
            </Button>
          </Restricted>
          <Restricted permission="portal_delete">
            <Button size="small" color="error" aria-label={`Delete ${portal.name}`} onClick={() => onStatus('delete')}>
              Delete
            </Button>
          </Restricted>
        </Stack>
      </TableCell>
    </TableRow>
  );
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

  const move = useMutation({
    mutationFn: async ({ p, to }: { p: Portal; to: string }) => {
      if (to === '') {
        if (p.categoryId != null) await portalApi.unlinkPortals(domain, p.categoryId, [p.id]);
      } else {
        await portalApi.linkPortals(domain, Number(to), [p.id]);
      }
    },
    onSuccess: (_, { p, to }) => {
      const name = categories.find((c) => String(c.id) === to)?.name;
      toasts.success(name ? `${p.name} moved to ${name}.` : `${p.name} removed from its category.`, 'SUCCESS');
      onMoved();
    },
    onError: (error) => showHttpError(error, 'Could not move the portal'),
  });

  return (
    <Dialog open={portal !== null} onClose={() => !move.isPending && onClose()} fullWidth maxWidth="xs">
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
        <Button onClick={onClose} disabled={move.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={move.isPending || target === current}
          onClick={() => portal && move.mutate({ p: portal, to: target })}
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

  const save = useMutation({
    mutationFn: async ({ name, category }: { name: string; category?: Category }) => {
      if (category) await portalApi.renameCategory(domain, category.id, name);
      else await portalApi.createCategory(domain, name);
    },
    onSuccess: async (_, { name, category }) => {
      toasts.success(category ? `Category renamed to ${name}.` : `Category ${name} created.`, 'SUCCESS');
      setDialog(null);
      await onChanged();
    },
    onError: (error, { category }) =>
      showHttpError(error, category ? 'Could not rename the category' : 'Could not create the category'),
  });

  const remove = useMutation({
    mutationFn: (category: Category) => portalApi.deleteCategory(domain, category.id),
    onSuccess: async (_, category) => {
      toasts.success(`Category ${category.name} deleted.`, 'SUCCESS');
      await onChanged();
    },
    onError: (error) => showHttpError(error, 'Could not delete the category'),
  });

  async function confirmDelete(category: Category) {
    const question = `Delete the category ${category.name}? Its portals become uncategorized.`;
    if (await toasts.prompt(question, { title: 'Delete Category' })) remove.mutate(category);
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
                        disabled={remove.isPending}
                        onClick={() => void confirmDelete(c)}
                      >
                        Delete
                      </Button>
                    </Restricted>
                  </Stack>
                }
              >
                <ListItemText primary={c.name} secondary={`${String(count(c))} portal${count(c) === 1 ? '' : 's'}`} />
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
        busy={save.isPending}
        validate={alphanumeric}
        onSubmit={(name) => save.mutate({ name, category: dialog?.mode === 'rename' ? dialog.category : undefined })}
        onClose={() => setDialog(null)}
      />
    </Card>
  );
}
