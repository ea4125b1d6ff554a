/**
 * The Page Manager (spec 3 §2 Portal menu; spec 2 §3 "Sitemap page", §5 "Pages", §7 "Pages"):
 * the sitemap as a tree where pages are added, edited, cloned, deleted, reordered among their
 * siblings and moved under another parent. Every change is based on the sitemap version read
 * and refreshes the sitemap and the workspace's local changes. page:r views, page:c adds and
 * clones, page:w edits and moves, page:d deletes. Not offered for limited or captive portals.
 */
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toApiError } from '../../api/errors';
import { MASTER_PAGE_ID, PAGE_ERRORS, pageKeys, pagesApi, type VersionedSitemap } from '../../api/pages';
import { portalKeys } from '../../api/portal';
import { SITEMAP_LOAD_FAILED, sitemapKeys, type SitemapPage } from '../../api/sitemap';
import { isCaptivePortal, isLimitedPortal } from '../../core/menus';
import { PermissionView } from '../../ui/Restricted';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import { usePortalParams } from '../../core/usePortalParams';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { LoadError, Loading, OpeningPortal } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { ActionFailure, useAction } from '../../ui/useAction';
import { OthersMark, pagePath, usePortalActivity } from '../presence';
import { ErrorCountMark, useFindingsByPath } from '../readiness';
import { CloneDialog, MoveDialog, type CloneValues, type MoveValues } from './CloneMoveDialogs';
import {
  addPageBody,
  allIds,
  moveBounds,
  movePageBody,
  PAGE_MANAGER_MESSAGES as MSG,
  pageModePath,
  pageName,
  placementOf,
  updatePageBody,
} from './model';
import { PageDetails } from './PageDetails';
import { PageDialog, type PageFormValues } from './PageDialog';
import { pageErrorCount } from './pageErrors';
import { PageTreePanel } from './PageTreePanel';

export default function PageManagerScreen() {
  const { domain, portal, branch, opened } = usePortalParams();
  const selected = useSelectionStore((s) => s.portal);
  const unavailable = isLimitedPortal(selected) || isCaptivePortal(selected);
  return (
    <PermissionView permission="page:r">
      {!opened ? (
        <OpeningPortal title={MSG.title} />
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
  // Pages whose files have readiness errors of the caller's workspace are marked.
  const findings = useFindingsByPath(domain, portal);
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
    action: (v) => pagesApi.add(domain, portal, addPageBody(v, version())),
    failure: PAGE_ERRORS.add,
    success: (_, v) => MSG.added(v.title.trim()),
    invalidate,
    onSuccess: (_, v) => setSelectedId(v.id),
  });
  const edit = useAction<PageFormValues, unknown>({
    action: (v) => pagesApi.update(domain, portal, updatePageBody(v, page?.id ?? '', parentId, version())),
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
    action: (v) => pagesApi.update(domain, portal, movePageBody(page?.id ?? '', v, version())),
    failure: PAGE_ERRORS.update,
    success: () => MSG.moved(pageName(page)),
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
    success: (_, target) => MSG.deleted(pageName(target)),
    invalidate,
    onSuccess: () => setSelectedId(parentId),
  });

  const designerPath = (id: string, mode: 'designer-mode' | 'source-mode') => pageModePath(location.pathname, id, mode);

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
  const bounds = moveBounds(placement, isMaster);

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
          <PageTreePanel
            root={root}
            selectedId={page?.id ?? null}
            onSelect={(p) => setSelectedId(p.id)}
            markOf={(p) => (
              <>
                <OthersMark what="page" activity={activity.get(p.isMaster ? 'index.html' : pagePath(p.id))} />
                <ErrorCountMark count={pageErrorCount(p, findings)} />
              </>
            )}
            actions={{
              can,
              isMaster,
              canMoveUp: bounds.up,
              canMoveDown: bounds.down,
              moving,
              onAdd: () => setDialog({ kind: 'add', parentId: page?.id ?? MASTER_PAGE_ID }),
              onEdit: () => setDialog({ kind: 'edit' }),
              onClone: () => setDialog({ kind: 'clone' }),
              onDelete: () => {
                setDeleteError(null);
                setDialog({ kind: 'delete' });
              },
              onMoveUp: () => placement && move.run({ parentId, position: placement.index - 1 }),
              onMoveDown: () => placement && move.run({ parentId, position: placement.index + 1 }),
              onMoveTo: () => setDialog({ kind: 'move' }),
            }}
          />
          {page && (
            <PageDetails
              page={page}
              parent={placement?.parent ?? null}
              onDesigner={() => void navigate(designerPath(page.id, 'designer-mode'))}
              onSource={() => void navigate(designerPath(page.id, 'source-mode'))}
              history={{ domain, portal, canRestore: can.write }}
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
            <DialogContentText>{MSG.deleteText(pageName(page))}</DialogContentText>
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
