/**
 * Source mode (spec 2 §2 "Routes": …/pages/{pageId}/source-mode): the page's HTML in the Ace
 * editor, saved through the designer's batch (type 'page', the version it was read at). A stale
 * version opens the conflict choice, an item's error is shown; leaving with unsaved changes asks
 * 'Would you like to save your changes before navigating?' (Save / Continue). The master page
 * ('master-page') edits index.html.
 *
 * The screen loads the page and frames it; SourceForm is the editor, model.ts its pure logic.
 */
import Chip from '@mui/material/Chip';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { MASTER_PAGE_ID, pageKeys, pagesApi } from '../../api/pages';
import { PermissionView } from '../../ui/Restricted';
import { useSelectionStore } from '../../core/selectionStore';
import { usePortalParams } from '../../core/usePortalParams';
import { LoadError, Loading, OpeningPortal } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { useWorkspaceReload } from '../editors';
import { SOURCE_MESSAGES as MSG } from './messages';
import { pageFileText, pageTitle, selectedPageUpdate } from './model';
import { SourceForm, type SourceFormState } from './SourceForm';
import { WorkspaceChangedAlert } from './WorkspaceChangedAlert';

export default function SourceModeScreen() {
  const { domain, portal, branch, opened } = usePortalParams();
  const { pageId = '' } = useParams();
  return (
    <PermissionView permission="page:r">
      {opened ? (
        <SourceMode key={`${domain}/${portal}/${branch}/${pageId}`} domain={domain} portal={portal} pageId={pageId} />
      ) : (
        <OpeningPortal title={MSG.title} />
      )}
    </PermissionView>
  );
}

function SourceMode({ domain, portal, pageId }: { domain: string; portal: string; pageId: string }) {
  // The edit keeps the version it started from: no background refetch replaces it.
  const page = useQuery({
    queryKey: pageKeys.page(domain, portal, pageId),
    queryFn: () => pagesApi.get(domain, portal, pageId),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  // After Revert All, Revert To, Reset or Reload Now the page is read again: an untouched editor
  // shows it, one with an unsaved edit keeps it, is told and offered Reload (issue 22 item 6),
  // as the file editors do.
  const formState = useRef<SourceFormState>({ dirty: false, base: null });
  const refresh = useWorkspaceReload(
    page,
    () => formState.current.dirty,
    () => formState.current.base,
    pageFileText,
  );
  const title = page.data ? pageTitle(page.data) : pageId;
  useEffect(() => {
    if (!page.data) return;
    const next = selectedPageUpdate(useSelectionStore.getState().page, page.data);
    if (next) useSelectionStore.setState({ page: next });
  }, [page.data]);

  return (
    <PageFrame
      title={MSG.title}
      overline="Page"
      badge={<Chip size="small" label={title} data-testid="source-page" />}
      intro={pageId === MASTER_PAGE_ID ? MSG.masterNote : undefined}
    >
      {page.isPending && <Loading label="Loading the page" />}
      {page.isError && <LoadError title={MSG.retrieveFailed} error={page.error} onRetry={() => void page.refetch()} />}
      {refresh.changed && <WorkspaceChangedAlert onReload={refresh.reload} />}
      {page.data && (
        <SourceForm
          key={refresh.formKey}
          domain={domain}
          portal={portal}
          pageId={pageId}
          initial={page.data}
          state={formState.current}
        />
      )}
    </PageFrame>
  );
}
