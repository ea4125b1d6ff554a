import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { portalApi, portalKeys } from '../../api/portal';
import { PermissionView, Restricted } from '../../ui/Restricted';
import { portalRoutePath } from '../../core/portalChain';
import { usePortalParams } from '../../core/usePortalParams';
import { toasts } from '../../core/toastService';
import { DataTable } from '../../ui/DataTable';
import { PageFrame } from '../../ui/PageFrame';
import { useAction } from '../../ui/useAction';
import { CreateBranchDialog, MergeDialog } from './BranchDialogs';
import { BRANCH_MESSAGES, defaultFromBranch } from './model';

/** Branches (spec 3 §2 portal module child 'branches'). */
export default function BranchesScreen() {
  const { domain, portal } = usePortalParams();
  return (
    <PermissionView permission="branch:r">
      <BranchesView key={`${domain}/${portal}`} />
    </PermissionView>
  );
}

function BranchesView() {
  const { domain, portal, branch: current, language } = usePortalParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const branches = useQuery({
    queryKey: portalKeys.branches(domain, portal),
    queryFn: () => portalApi.branches(domain, portal),
  });
  const active = useQuery({
    queryKey: portalKeys.activeBranch(domain, portal),
    queryFn: () => portalApi.activeBranch(domain, portal),
  });
  const [creating, setCreating] = useState(false);
  const [merging, setMerging] = useState(false);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: portalKeys.branches(domain, portal) }),
      // The branch picker (features/portal) lists the references under its own key.
      queryClient.invalidateQueries({ queryKey: portalKeys.workspace(domain, portal) }),
    ]);

  const remove = useAction({
    action: (name: string) => portalApi.deleteBranch(domain, portal, name),
    success: (_, name) => `Branch ${name} deleted.`,
    // A branch that a workspace has checked out with unpushed work is refused (409
    // BRANCH_CHECKED_OUT): the toast carries the server's reason.
    failure: 'Could not delete the branch',
    onSuccess: async (_, name) => {
      await refresh();
      // The workspace was on the branch just deleted: move to the active branch (the selection
      // chain opens it) rather than stay on a branch that no longer exists.
      if (name === current && activeName)
        void navigate(portalRoutePath(domain, portal, activeName, language, 'branches'));
    },
  });

  async function confirmDelete(name: string) {
    const question = `Delete the branch ${name}? Commits only on this branch are lost.`;
    if (await toasts.prompt(question, { title: 'Delete Branch' })) remove.run(name);
  }

  const list = branches.data ?? [];
  const activeName = active.data?.trim() ?? '';

  return (
    <PageFrame
      title="Branches"
      actions={
        <Stack direction="row" spacing={1}>
          <Restricted permission="branch_write">
            <Button variant="outlined" onClick={() => setMerging(true)} disabled={list.length < 2}>
              Merge Branches
            </Button>
          </Restricted>
          <Restricted permission="branch_create">
            <Button variant="contained" onClick={() => setCreating(true)} disabled={!branches.isSuccess}>
              Create Branch
            </Button>
          </Restricted>
        </Stack>
      }
    >
      <DataTable
        label="Branches"
        columns={[
          {
            id: 'branch',
            header: 'Branch',
            rowHeader: true,
            sortValue: (name) => name,
            cell: (name) => (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <span>{name}</span>
                {name === activeName && <Chip size="small" color="primary" label="Active" />}
                {name === current && <Chip size="small" variant="outlined" label="Current" />}
              </Stack>
            ),
          },
          {
            id: 'actions',
            header: 'Actions',
            align: 'right',
            cell: (name) => (
              <Restricted permission="branch_delete">
                <Tooltip title={name === activeName ? BRANCH_MESSAGES.activeCannotBeDeleted : ''}>
                  <span>
                    <Button
                      size="small"
                      color="error"
                      aria-label={`Delete branch ${name}`}
                      disabled={name === activeName || !active.isSuccess || remove.pending}
                      onClick={() => void confirmDelete(name)}
                    >
                      Delete
                    </Button>
                  </span>
                </Tooltip>
              </Restricted>
            ),
          },
        ]}
        rows={branches.data}
        rowKey={(name) => name}
        loading={branches.isPending}
        loadingText="Loading branches"
        error={branches.error}
        errorTitle={BRANCH_MESSAGES.loadFailed}
        onRetry={() => void branches.refetch()}
        emptyText="No branches."
      />
      <CreateBranchDialog
        open={creating}
        domain={domain}
        portal={portal}
        branches={list}
        defaultFrom={defaultFromBranch(list, current, activeName)}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          void refresh();
        }}
      />
      <MergeDialog
        open={merging}
        domain={domain}
        portal={portal}
        branches={list}
        onClose={() => setMerging(false)}
        onMerged={() => {
          setMerging(false);
          void refresh();
        }}
      />
    </PageFrame>
  );
}
