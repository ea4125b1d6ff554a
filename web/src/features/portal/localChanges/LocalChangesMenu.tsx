import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DifferenceOutlinedIcon from '@mui/icons-material/DifferenceOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import type { LocalCommit } from '../../../api/portal';
import { usePermission } from '../../../core/usePermission';
import { parsePortalRoute } from '../../../core/portalChain';
import { useSelectionStore } from '../../../core/selectionStore';
import { workspaceChanged } from '../../../core/workspaceRefresh';
import { toasts } from '../../../core/toastService';
import { HeaderPopover, useHeaderPopover } from '../../../ui/HeaderPopover';
import { CONFLICT_MESSAGES, DiscardedWorkDialog, ReviewDialog, useWorkspaceConflicts } from '../../conflicts';
import { invalidateWorkspace, useLocalChanges, useLocalCommits, usePortalSettings } from '../queries';
import { ChangeList } from './ChangeList';
import { CommitBox } from './CommitBox';
import { commitChanges, LOCAL_CHANGES_MESSAGES, revert, showFailure } from './commit';
import { ConflictAlert } from './ConflictAlert';
import { LocalCommitsSection } from './LocalCommitsSection';
import { OtherUsersChanges } from './OtherUsersChanges';

/** A review: one file (path) or all of the next commit (null path). */
type Review = { path: string | null } | null;

/**
 * The header's local-changes menu (spec 3 §2, §4): the count of uncommitted changes, and a
 * panel with the local commits (Revert To), the uncommitted changes (Review, Review all), the
 * commit message box (Submit), Revert All, Recover discarded work and other users' changes on
 * the branch. When the local commits conflict with the branch (GET /workspace-conflicts, or a
 * commit answered GIT_CONFLICTS) the panel offers Resolve conflicts and Reset Workspace, and
 * Submit and Revert To wait until the conflicts are resolved.
 */
export function LocalChangesMenu() {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const branch = useSelectionStore((s) => s.branch);
  const selectedLanguage = useSelectionStore((s) => s.language);
  const canWrite = usePermission('portal:w');
  const canWriteTranslations = usePermission('translation:w');
  const canRead = usePermission('portal:r');
  // Conflicts and reviews show file content: they need what reading the files needs.
  const canReadFiles = usePermission('asset:r');
  const fetchLocal = !!portal && (canWrite || canWriteTranslations);
  const d = domain?.id;
  const p = portal?.id;
  const local = useLocalChanges(d, p, fetchLocal);
  const commits = useLocalCommits(d, p, fetchLocal);
  const [commitConflict, setCommitConflict] = useState<{ message: string; at: number } | null>(null);
  const hasLocalCommits = (commits.data?.length ?? 0) > 0;
  const conflicts = useWorkspaceConflicts(d, p, canReadFiles && fetchLocal && (hasLocalCommits || !!commitConflict));
  const client = useQueryClient();
  const location = useLocation();
  const menu = useHeaderPopover();
  const [review, setReview] = useState<Review>(null);
  const [recovering, setRecovering] = useState(false);
  // The portal's commit message rule, read when the panel opens for someone who can commit.
  const settings = usePortalSettings(d, p, branch ?? undefined, menu.open && canWrite);
  // A failed local-commits fetch, once per failure (spec 3 §8).
  const commitsError = commits.isError ? commits.error : null;
  useEffect(() => {
    if (commitsError) showFailure(LOCAL_CHANGES_MESSAGES.localCommitsFailed, commitsError);
  }, [commitsError, commits.errorUpdatedAt]);

  if (!domain || !portal || !branch || d === undefined || p === undefined || !canRead) return null;

  const changes = local.data?.changes ?? {};
  const count = Object.keys(changes).length;
  const language = selectedLanguage ?? parsePortalRoute(location.pathname)?.language ?? 'en_GB';
  // The server's answer after the commit's conflict is the word; before it, the commit's.
  const clearedSince =
    !!conflicts.data && !conflicts.data.inConflict && conflicts.dataUpdatedAt > (commitConflict?.at ?? 0);
  const inConflict = !!conflicts.data?.inConflict || (!!commitConflict && !clearedSince);
  const target = { domainId: d, portalId: p, branch };

  const submit = async (message: string) => {
    const outcome = await commitChanges(d, p, message);
    if (outcome.ok) {
      setCommitConflict(null);
      menu.close();
    } else if (outcome.conflict) {
      setCommitConflict({ message: outcome.conflict, at: Date.now() });
    }
    void invalidateWorkspace(client, d, p);
    return outcome.ok;
  };

  // After a revert the workspace's files are what they were: every view derived from them
  // (settings, the selection's languages, the file watcher…) loads again.
  const revertAll = async () => {
    menu.close();
    if (!(await toasts.prompt(LOCAL_CHANGES_MESSAGES.revertAllPrompt))) return;
    if (await revert(d, p)) await workspaceChanged(client, target, { reopen: true });
  };

  const revertTo = async (c: LocalCommit) => {
    menu.close();
    if (!(await toasts.prompt(LOCAL_CHANGES_MESSAGES.revertToPrompt(c.message)))) return;
    if (await revert(d, p, c.commitId)) await workspaceChanged(client, target, { reopen: true });
  };

  const label = fetchLocal ? `Local changes: ${count}` : 'Local changes';
  return (
    <>
      <HeaderPopover
        control={menu}
        label={label}
        tooltip="Local changes"
        icon={
          <Badge
            // No count in the DOM when none is shown: the name must hold any visible text (axe).
            // A new badge when the count goes: MUI's keeps showing the last count while hidden.
            key={fetchLocal && count > 0 ? 'count' : 'none'}
            badgeContent={fetchLocal && count > 0 ? count : undefined}
            color="warning"
            invisible={!fetchLocal || count === 0}
            aria-hidden
          >
            <DifferenceOutlinedIcon />
          </Badge>
        }
        kind="region"
        panelLabel="Local changes"
        paperSx={{ width: 560, maxHeight: '80vh', p: 2 }}
      >
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Local changes on {branch}
          </Typography>
          {inConflict && (
            <ConflictAlert
              d={d}
              p={p}
              branch={branch}
              language={language}
              message={commitConflict?.message ?? CONFLICT_MESSAGES.conflictFallback}
              onLeave={menu.close}
              onReset={() => setCommitConflict(null)}
            />
          )}
          {fetchLocal && (
            <>
              <LocalCommitsSection
                commits={commits.data}
                canWrite={canWrite}
                inConflict={inConflict}
                onRevertTo={(c) => void revertTo(c)}
              />
              <Box component="section" aria-label="Uncommitted changes">
                <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
                  <Typography variant="subtitle2" component="h3" gutterBottom>
                    Uncommitted changes
                  </Typography>
                  {canReadFiles && (count > 0 || hasLocalCommits) && (
                    <Button size="small" onClick={() => setReview({ path: null })}>
                      {CONFLICT_MESSAGES.reviewAll}
                    </Button>
                  )}
                </Stack>
                <ChangeList
                  changes={changes}
                  label="Uncommitted files"
                  onReview={canReadFiles ? (path) => setReview({ path }) : undefined}
                />
              </Box>
              {canWrite && (
                <CommitBox
                  rule={settings.data?.data.commitMessageRule}
                  count={count}
                  inConflict={inConflict}
                  onRevertAll={() => void revertAll()}
                  onSubmit={submit}
                />
              )}
              {canWrite && (
                <Box>
                  <Button size="small" onClick={() => setRecovering(true)}>
                    {CONFLICT_MESSAGES.recover}
                  </Button>
                </Box>
              )}
              <Divider />
            </>
          )}
          <OtherUsersChanges d={d} p={p} branch={branch} />
        </Stack>
      </HeaderPopover>
      <ReviewDialog
        open={review !== null}
        onClose={() => setReview(null)}
        d={d}
        p={p}
        files={review?.path ? { [review.path]: changes[review.path] ?? 'MODIFY' } : undefined}
        startPath={review?.path ?? undefined}
      />
      {canWrite && (
        <DiscardedWorkDialog open={recovering} onClose={() => setRecovering(false)} d={d} p={p} branch={branch} />
      )}
    </>
  );
}
