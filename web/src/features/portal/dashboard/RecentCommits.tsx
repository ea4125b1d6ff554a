import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { commitKeys, commitsApi, type BranchCommit } from '../../../api/commits';
import type { ChangeType, Id } from '../../../api/portal';
import { workspaceChanged } from '../../../core/workspaceRefresh';
import { toasts } from '../../../core/toastService';
import { formatDateTime } from '../../../lib/format';
import { useAction } from '../../../ui/useAction';
import { CONFLICT_MESSAGES, ReviewDialog } from '../../conflicts';
import { useWorkspaceStore } from '../../realtime';
import { LOCAL_CHANGES_MESSAGES, revert } from '../localChanges/commit';
import { usePermission } from '../../../core/usePermission';

/** Files shown per commit before "and n more". */
export const FILES_SHOWN = 5;

export const RECENT_COMMITS_MESSAGES = {
  title: 'Recent commits',
  empty: 'No commits on this branch yet',
  failed: 'Could not load the recent commits',
  discardsChanges: (n: number) =>
    `Your ${n === 1 ? 'uncommitted change is' : `${n} uncommitted changes are`} discarded.`,
} as const;

const CHANGE_COLOR: Record<ChangeType, 'success' | 'info' | 'error'> = {
  ADD: 'success',
  MODIFY: 'info',
  DELETE: 'error',
};
const CHANGE_LABEL: Record<ChangeType, string> = { ADD: 'Added', MODIFY: 'Modified', DELETE: 'Deleted' };

function CommitFiles({ commit }: { commit: BranchCommit }) {
  const [all, setAll] = useState(false);
  const shown = all ? commit.files : commit.files.slice(0, FILES_SHOWN);
  const hidden = commit.filesTotal - shown.length;
  if (commit.filesTotal === 0) return <Typography color="text.secondary">No files changed</Typography>;
  return (
    <Box component="ul" aria-label={`Files of ${commit.commitId.slice(0, 10)}`} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {shown.map((f) => (
        <Box component="li" key={f.path} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.25 }}>
          <Chip size="small" variant="outlined" label={CHANGE_LABEL[f.change]} color={CHANGE_COLOR[f.change]} />
          <Typography component="span" sx={{ fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }}>
            {f.path}
          </Typography>
        </Box>
      ))}
      {hidden > 0 && (
        <Box component="li">
          {!all && commit.files.length > shown.length ? (
            <Button size="small" onClick={() => setAll(true)}>
              Show {commit.files.length - shown.length} more
            </Button>
          ) : (
            <Typography variant="body2" color="text.secondary">
              and {hidden} more {hidden === 1 ? 'file' : 'files'}
            </Typography>
          )}
        </Box>
      )}
    </Box>
  );
}

/**
 * The branch's recent commits (canonical repository): author, time, message, files changed,
 * and Revert To (portal:w) as in the local-changes menu: a prompt, 'Reverting Portal Changes',
 * then the workspace is opened again and every view refreshes (core/workspaceRefresh.ts).
 */
export function RecentCommits({
  d,
  p,
  branch,
  canWrite,
  uncommitted = 0,
}: {
  d: Id;
  p: Id;
  branch: string;
  canWrite: boolean;
  /** The caller's uncommitted changes: Revert To discards them, so the prompt says so. */
  uncommitted?: number;
}) {
  const client = useQueryClient();
  const [reviewing, setReviewing] = useState<BranchCommit | null>(null);
  // The review shows file content: it needs what reading the files needs.
  const canReadFiles = usePermission('asset:r');
  const commits = useQuery({
    queryKey: commitKeys.recent(d, p, branch),
    queryFn: () => commitsApi.recent(d, p, branch),
    refetchOnWindowFocus: 'always',
  });
  // Another user's commit changes their workspace entry (realtime): the branch has moved on.
  const live = useWorkspaceStore((s) => s.otherUsersChanges[String(p)]);
  const { refetch } = commits;
  useEffect(() => {
    if (live) void refetch();
  }, [live, refetch]);

  // revert() tells its own failure; the action's toast is for what follows it.
  const revertAction = useAction({
    action: async (c: BranchCommit) => {
      if (await revert(d, p, c.commitId))
        await workspaceChanged(client, { domainId: d, portalId: p, branch }, { reopen: true });
    },
    failure: LOCAL_CHANGES_MESSAGES.revertFailed,
  });
  const busy = revertAction.pending;

  const revertTo = async (c: BranchCommit) => {
    if (busy) return;
    const question = LOCAL_CHANGES_MESSAGES.revertToPrompt(c.message);
    const prompt = uncommitted > 0 ? `${question} ${RECENT_COMMITS_MESSAGES.discardsChanges(uncommitted)}` : question;
    if (!(await toasts.prompt(prompt))) return;
    revertAction.run(c);
  };

  let body;
  if (commits.isPending) body = <Typography color="text.secondary">Loading…</Typography>;
  else if (commits.isError) body = <Typography color="error">{RECENT_COMMITS_MESSAGES.failed}</Typography>;
  else if (commits.data.length === 0)
    body = <Typography color="text.secondary">{RECENT_COMMITS_MESSAGES.empty}</Typography>;
  else
    body = (
      <Table size="small" aria-label="Recent commits table">
        <TableHead>
          <TableRow>
            <TableCell>Message</TableCell>
            <TableCell>Author</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>Time</TableCell>
            <TableCell sx={{ minWidth: 280 }}>Files changed</TableCell>
            <TableCell>Action</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {commits.data.map((c, i) => (
            <TableRow key={c.commitId} sx={{ verticalAlign: 'top' }}>
              <TableCell>
                <Typography variant="body2">{c.message}</Typography>
                <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                  {c.commitId.slice(0, 10)}
                </Typography>
              </TableCell>
              <TableCell>{c.author}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(c.time)}</TableCell>
              <TableCell>
                <CommitFiles commit={c} />
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={1}>
                  {canReadFiles && (
                    <Button
                      size="small"
                      sx={{ whiteSpace: 'nowrap' }}
                      aria-label={CONFLICT_MESSAGES.reviewCommit(c.commitId.slice(0, 10))}
                      onClick={() => setReviewing(c)}
                    >
                      {CONFLICT_MESSAGES.changes}
                    </Button>
                  )}
                  {canWrite && i > 0 && (
                    <Button
                      size="small"
                      sx={{ whiteSpace: 'nowrap' }}
                      disabled={busy}
                      aria-label={`Revert To ${c.commitId.slice(0, 10)}`}
                      onClick={() => void revertTo(c)}
                    >
                      Revert To
                    </Button>
                  )}
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );

  return (
    <Card variant="outlined" component="section" aria-labelledby="recent-commits-title">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between', mb: 1 }}>
          <Typography id="recent-commits-title" variant="h6" component="h2">
            {RECENT_COMMITS_MESSAGES.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            on {branch}
          </Typography>
        </Stack>
        {body}
      </CardContent>
      <ReviewDialog
        open={reviewing !== null}
        onClose={() => setReviewing(null)}
        d={d}
        p={p}
        subject={reviewing ? { commit: reviewing.commitId } : undefined}
        title={reviewing ? CONFLICT_MESSAGES.reviewCommitTitle(reviewing.commitId.slice(0, 10)) : undefined}
      />
    </Card>
  );
}
