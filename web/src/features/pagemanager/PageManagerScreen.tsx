/**
 * The Page Manager (spec 3 §2 Portal menu; spec 2 §3 "Sitemap page", §5 "Pages", §7 "Pages"):
 * the sitemap as a tree where pages are added, edited, cloned, deleted, reordered among their
 * siblings and moved under another parent. Every change is based on the sitemap version read
 * and refreshes the sitemap and the workspace's local changes. page:r views, page:c adds and
 * clones, page:w edits and moves, page:d deletes. Not offered for limited or captive portals.
 */
import AddIcon from '@mui/icons-material/Add';
import ArrowDownIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpIcon from '@mui/icons-material/ArrowUpward';
import CodeIcon from '@mui/icons-material/Code';
import CopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DesignIcon from '@mui/icons-material/DesignServicesOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import MoveIcon from '@mui/icons-material/DriveFileMoveOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import DialogContentText from '@mui/material/DialogContentText';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toApiError } from '../../api/errors';
import { MASTER_PAGE_ID, PAGE_ERRORS, pageKeys, pagesApi, type VersionedSitemap } from '../../api/pages';
import { portalKeys } from '../../api/portal';
import { SITEMAP_LOAD_FAILED, sitemapKeys, type SitemapPage } from '../../api/sitemap';
import { isCaptivePortal, isLimitedPortal } from '../../app/nav/menus';
import { PermissionView } from '../../app/permissions/Restricted';
import { usePermission } from '../../app/permissions/usePermission';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { ActionFailure, useAction } from '../../ui/useAction';
import { usePortalParams } from '../portals-admin/shared';
import { CloneDialog, MoveDialog, type CloneValues, type MoveValues } from './CloneMoveDialogs';
import { allIds, PAGE_MANAGER_MESSAGES as MSG, placementOf } from './model';
import { PageDialog, type PageFormValues } from './PageDialog';
import { SitemapTree } from './SitemapTree';
import { OthersMark, pagePath, usePortalActivity } from '../presence';

export default function PageManagerScreen() {
  const { domain, portal, branch, opened } = usePortalParams();
  const selected = useSelectionStore((s) => s.portal);
  const unavailable = isLimitedPortal(selected) || isCaptivePortal(selected);
  return (
    <PermissionView permission="page:r">
      {!opened ? (
        <PageFrame title={MSG.title}>
          <Loading label="Opening the portal" />
        </PageFrame>
      ) : unavailable ? (
        <PageFrame title={MSG.title}>
          <Alert severity="info" role="alert">
            {MSG.notAvailable}
          </Alert>
        </PageFrame>
      ) : (
        <PageManager key={`${domain}/${portal}/${branch}`} domain={domain} portal={portal} />
      )}
    </PermissionView>
  );
}

type DialogState =
  | { kind: 'add'; parentId: string }
  | { kind: 'edit' }
  | { kind: 'clone' }
  | { kind: 'move' }
  | { kind: 'delete' }
  | null;

function PageManager({ domain, portal }: { domain: string; portal: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const sitemap = useQuery({
    queryKey: pageKeys.versionedSitemap(domain, portal),
    queryFn: () => pagesApi.sitemap(domain, portal),
    staleTime: 0,
  });
  const root = sitemap.data?.root ?? null;
  const [selectedId, setSelectedId] = useState<string>(MASTER_PAGE_ID);
  // Pages other users are changing (uncommitted changes, or editing now) are marked.
  const activity = usePortalActivity(domain, portal);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deleteError, setDeleteError] = useState<{ title: string; message: string } | null>(null);
  const can = {
    create: usePermission('page:c'),
    write: usePermission('page:w'),
    remove: usePermission('page:d'),
  };

  const placement = placementOf(root, selectedId) ?? (root ? placementOf(root, MASTER_PAGE_ID) : null);
  const page = placement?.page ?? null;
  const isMaster = !page || page.id === MASTER_PAGE_ID;
  const parentId = placement?.parent?.id ?? MASTER_PAGE_ID;
  const taken = useMemo(() => allIds(root), [root]);
  const version = () => (sitemap.data as VersionedSitemap | undefined)?.sitemapVersion ?? '';
  const invalidate = [
    sitemapKeys.sitemap(domain, portal),
    portalKeys.localChanges(domain, portal),
    [...portalKeys.workspace(domain, portal), 'page'],
  ] as const;

  const add = useAction<PageFormValues, unknown>({
    action: (v) =>
      pagesApi.add(domain, portal, {
        id: v.id,
        title: v.title.trim(),
        url: v.url,
        parameters: v.parameters,
        hidePage: v.hidePage,
        status: v.status,
        parentId: v.parentId,
        sitemapVersion: version(),
      }),
    failure: PAGE_ERRORS.add,
    success: (_, v) => MSG.added(v.title.trim()),
    invalidate,
    onSuccess: (_, v) => setSelectedId(v.id),
  });
  const edit = useAction<PageFormValues, unknown>({
    action: (v) =>
      pagesApi.update(domain, portal, {
        id: page?.id ?? '',
        title: v.title.trim(),
        url: v.url,
        parameters: v.parameters,
        hidePage: v.hidePage,
        status: v.status,
        ...(v.parentId !== parentId ? { parentId: v.parentId } : {}),
        sitemapVersion: version(),
      }),
    failure: PAGE_ERRORS.update,
    success: (_, v) => MSG.updated(v.title.trim()),
    invalidate,
  });
  const clone = useAction<CloneValues, unknown>({
    action: (v) =>
      pagesApi.clone(domain, portal, page?.id ?? '', { id: v.id, title: v.title.trim(), sitemapVersion: version() }),
    failure: PAGE_ERRORS.clone,
    success: (_, v) => MSG.cloned(v.title.trim()),
    invalidate,
    onSuccess: (_, v) => setSelectedId(v.id),
  });
  const move = useAction<{ parentId: string; position?: number }, unknown>({
    action: (v) =>
      pagesApi.update(domain, portal, {
        id: page?.id ?? '',
        parentId: v.parentId,
        ...(v.position === undefined ? {} : { position: v.position }),
        sitemapVersion: version(),
      }),
    failure: PAGE_ERRORS.update,
    success: () => MSG.moved(page?.title || page?.id || ''),
    successTitle: null,
    invalidate,
  });
  const remove = useAction<SitemapPage, unknown>({
    action: async (target) => {
      // The page file's version too: the server removes both or neither.
      const current = await pagesApi.get(domain, portal, target.id);
      return pagesApi.remove(domain, portal, target.id, current.sitemapVersion ?? version(), current.version);
    },
    failure: PAGE_ERRORS.remove,
    success: (_, target) => MSG.deleted(target.title || target.id),
    invalidate,
    onSuccess: () => setSelectedId(parentId),
  });

  const designerPath = (id: string, mode: 'designer-mode' | 'source-mode') =>
    location.pathname.replace(/\/page-manager\/?$/, `/pages/${encodeURIComponent(id)}/${mode}`);

  async function confirmDelete() {
    if (!page) return;
    setDeleteError(null);
    try {
      await remove.submit(page);
      setDialog(null);
    } catch (error) {
      if (error instanceof ActionFailure)
        setDeleteError({ title: error.title, message: toApiError(error.error).errorMessage });
    }
  }

  const moving = move.pending;
  const canMoveUp = !isMaster && !!placement && placement.index > 0;
  const canMoveDown = !isMaster && !!placement && placement.index < placement.siblings - 1;

  return (
    <PageFrame
      title={MSG.title}
      intro="The pages of your workspace's sitemap. Changes are local changes until you commit them."
      actions={
        <Button
          startIcon={<RefreshIcon />}
          onClick={() => void sitemap.refetch()}
          disabled={sitemap.isFetching}
          aria-label="Reload sitemap"
        >
          Reload
        </Button>
      }
    >
      {sitemap.isPending && <Loading label="Loading Sitemap" />}
      {sitemap.isError && (
        <LoadError title={SITEMAP_LOAD_FAILED} error={sitemap.error} onRetry={() => void sitemap.refetch()} />
      )}
      {root && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Paper variant="outlined" sx={{ flex: 1, minWidth: 280, p: 1, width: '100%' }}>
            <Stack
              direction="row"
              role="toolbar"
              aria-label="Page actions"
              useFlexGap
              spacing={1}
              sx={{ flexWrap: 'wrap', p: 1 }}
            >
              {can.create && (
                <Button
                  variant="contained"
                  size="small"
                  startIcon={<AddIcon />}
                  onClick={() => setDialog({ kind: 'add', parentId: page?.id ?? MASTER_PAGE_ID })}
                >
                  Add page
                </Button>
              )}
              {can.write && (
                <Button
                  size="small"
                  startIcon={<EditIcon />}
                  disabled={isMaster}
                  onClick={() => setDialog({ kind: 'edit' })}
                >
                  Edit page
                </Button>
              )}
              {can.create && (
                <Button
                  size="small"
                  startIcon={<CopyIcon />}
                  disabled={isMaster}
                  onClick={() => setDialog({ kind: 'clone' })}
                >
                  Clone page
                </Button>
              )}
              {can.remove && (
                <Button
                  size="small"
                  color="error"
                  startIcon={<DeleteIcon />}
                  disabled={isMaster}
                  onClick={() => {
                    setDeleteError(null);
                    setDialog({ kind: 'delete' });
                  }}
                >
                  Delete page
                </Button>
              )}
              {can.write && (
                <>
                  <Button
                    size="small"
                    startIcon={<ArrowUpIcon />}
                    disabled={!canMoveUp || moving}
                    onClick={() => placement && move.run({ parentId, position: placement.index - 1 })}
                  >
                    Move up
                  </Button>
                  <Button
                    size="small"
                    startIcon={<ArrowDownIcon />}
                    disabled={!canMoveDown || moving}
                    onClick={() => placement && move.run({ parentId, position: placement.index + 1 })}
                  >
                    Move down
                  </Button>
                  <Button
                    size="small"
                    startIcon={<MoveIcon />}
                    disabled={isMaster || moving}
                    onClick={() => setDialog({ kind: 'move' })}
                  >
                    Move to…
                  </Button>
                </>
              )}
            </Stack>
            <Divider />
            {(root.children ?? []).length === 0 && (
              <Typography color="text.secondary" sx={{ p: 2 }}>
                {MSG.noPages}
              </Typography>
            )}
            <SitemapTree
              root={root}
              selectedId={page?.id ?? null}
              onSelect={(p) => setSelectedId(p.id)}
              markOf={(p) => (
                <OthersMark what="page" activity={activity.get(p.isMaster ? 'index.html' : pagePath(p.id))} />
              )}
            />
          </Paper>
          {page && (
            <PageDetails
              page={page}
              parent={placement?.parent ?? null}
              onDesigner={() => void navigate(designerPath(page.id, 'designer-mode'))}
              onSource={() => void navigate(designerPath(page.id, 'source-mode'))}
            />
          )}
        </Stack>
      )}

      <PageDialog
        open={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        mode={dialog?.kind === 'edit' ? 'edit' : 'add'}
        root={root}
        parentId={dialog?.kind === 'add' ? dialog.parentId : parentId}
        page={dialog?.kind === 'edit' ? page : null}
        taken={taken}
        onSubmit={(values) => (dialog?.kind === 'edit' ? edit.submit(values) : add.submit(values))}
        onClose={() => setDialog(null)}
      />
      <CloneDialog
        open={dialog?.kind === 'clone'}
        page={page}
        taken={taken}
        onSubmit={(values) => clone.submit(values)}
        onClose={() => setDialog(null)}
      />
      <MoveDialog
        open={dialog?.kind === 'move'}
        root={root}
        page={page}
        parentId={parentId}
        onSubmit={(values: MoveValues) => move.submit({ parentId: values.parentId })}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={MSG.deleteTitle}
        message={
          <>
            <DialogContentText>{MSG.deleteText(page?.title || page?.id || '')}</DialogContentText>
            {deleteError && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                <AlertTitle>{deleteError.title}</AlertTitle>
                {deleteError.message}
              </Alert>
            )}
          </>
        }
        confirmLabel="Delete"
        danger
        pending={remove.pending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDialog(null)}
      />
    </PageFrame>
  );
}

const STATUS_LABELS: Record<string, string> = { PUBLISHED: 'Published', DRAFT: 'Draft' };

function PageDetails({
  page,
  parent,
  onDesigner,
  onSource,
}: {
  page: SitemapPage;
  parent: SitemapPage | null;
  onDesigner: () => void;
  onSource: () => void;
}) {
  const parameters = page.parameters ?? [];
  const row = (label: string, value: React.ReactNode) => (
    <Box sx={{ display: 'grid', gridTemplateColumns: '110px 1fr', gap: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ wordBreak: 'break-word' }}>
        {value}
      </Typography>
    </Box>
  );
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, width: { xs: '100%', md: 360 }, flexShrink: 0 }}
      role="region"
      aria-label="Page details"
    >
      <Stack spacing={1}>
        <Typography variant="h6" component="h2">
          {page.title || page.id}
        </Typography>
        {row('Id', <code>{page.id}</code>)}
        {row('URL', page.url || '—')}
        {!page.isMaster && row('Parent', parent ? parent.title || parent.id : '—')}
        {!page.isMaster && row('Status', STATUS_LABELS[page.status || 'PUBLISHED'] ?? page.status)}
        {!page.isMaster && row('Hidden', page.hidePage ? 'Yes' : 'No')}
        {!page.isMaster &&
          row(
            'Parameters',
            parameters.length === 0 ? (
              'None'
            ) : (
              <Stack direction="row" useFlexGap spacing={0.5} sx={{ flexWrap: 'wrap' }}>
                {parameters.map((p) => (
                  <Chip
                    key={p.name}
                    size="small"
                    label={`${p.name}${p.required ? ' *' : ''}`}
                    title={p.description || undefined}
                  />
                ))}
              </Stack>
            ),
          )}
        <Stack direction="row" spacing={1} sx={{ pt: 1 }}>
          <Button variant="outlined" size="small" startIcon={<DesignIcon />} onClick={onDesigner}>
            Open in designer
          </Button>
          <Button size="small" startIcon={<CodeIcon />} onClick={onSource}>
            Edit source
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
