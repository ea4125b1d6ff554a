/**
 * Resolve conflicts (issue 21): …/branch/{branch}/{language}/conflicts.
 *
 * The caller's local commits that cannot merge with the branch, from the server (so the screen
 * survives a reload): every conflicting file with its conflicts (Theirs | Mine, Base on request)
 * and a choice per conflict; files both sides changed that merged anyway are listed. 'Resolve
 * and commit' is enabled once every conflict has a (valid) choice and posts exactly those
 * choices with the tip the conflicts were read at. When the branch moved on meanwhile (409
 * CONFLICT_TIP_MOVED) the message is shown and the conflicts load again (choices of unchanged
 * conflicts are kept). On success: 'Changes committed' (or, when the choices left nothing to
 * commit, the server's message as an info toast: the local commit is kept as discarded work),
 * every workspace view refreshes and the portal dashboard opens.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toApiError } from '../../api/errors';
import {
  CONFLICT_TIP_MOVED,
  conflictKeys,
  conflictsApi,
  type ResolveResult,
  type WorkspaceConflicts,
} from '../../api/conflicts';
import { paths } from '../../core/paths';
import { PermissionView } from '../../ui/Restricted';
import { usePermission } from '../../core/usePermission';
import { overlay } from '../../core/overlayStore';
import { workspaceChanged } from '../../core/workspaceRefresh';
import { toasts } from '../../core/toastService';
import { PendingButton } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { ActionBusyError, ActionFailure, useAction } from '../../ui/useAction';
import { usePortalParams } from '../../core/usePortalParams';
// The commit notices are core's, not features/portal's: portal imports this feature (no loop).
import { COMMIT_MESSAGES, noteNothingCommitted, warnOnUpstream, warnOnValidation } from '../../core/commitNotices';
import { ConflictFileCard } from './ConflictFileCard';
import { MergedFiles } from './MergedFiles';
import { CONFLICT_MESSAGES as MSG } from './messages';
import { retainPicks, toChoices, unresolvedCount, type ConflictPick, type Picks } from './model';

export default function ConflictsScreen() {
  const { domain, portal, branch, language, opened } = usePortalParams();
  return (
    <PermissionView permission="portal:r">
      {!opened ? (
        <PageFrame title={MSG.title}>
          <Loading label={MSG.opening} />
        </PageFrame>
      ) : (
        <Resolver key={`${domain}/${portal}/${branch}`} d={domain} p={portal} branch={branch} language={language} />
      )}
    </PermissionView>
  );
}

function Resolver({ d, p, branch, language }: { d: string; p: string; branch: string; language: string }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const canWrite = usePermission('portal:w');
  const conflicts = useQuery({
    queryKey: conflictKeys.conflicts(d, p),
    queryFn: () => conflictsApi.conflicts(d, p),
    refetchOnWindowFocus: false,
    retry: false,
  });
  const [picks, setPicks] = useState<Picks>({});
  const [problem, setProblem] = useState<string | null>(null);
  // A reload (the branch moved on) keeps the choices of conflicts that did not change.
  const [seen, setSeen] = useState<WorkspaceConflicts | undefined>(conflicts.data);
  if (conflicts.data !== seen) {
    setSeen(conflicts.data);
    setPicks(retainPicks(seen?.files ?? [], conflicts.data?.files ?? [], picks));
  }
  const dashboard = paths.portalScreen(d, p, branch, language, 'dashboard');

  const resolve = useAction<WorkspaceConflicts, ResolveResult>({
    action: async (data) => {
      overlay.show(COMMIT_MESSAGES.committing);
      try {
        return await conflictsApi.resolve(d, p, { tip: data.tip, choices: toChoices(data.files, picks) });
      } finally {
        overlay.hide();
      }
    },
    failure: MSG.resolveFailed,
    onSuccess: async (result) => {
      // Keeping theirs everywhere leaves nothing to commit: told as information, not success.
      if (!noteNothingCommitted(result)) toasts.success(COMMIT_MESSAGES.committed, 'SUCCESS');
      warnOnValidation(result);
      warnOnUpstream(result?.upstreamWarning);
      await workspaceChanged(client, { domainId: d, portalId: p, branch }, { reopen: true });
      void navigate(dashboard);
    },
  });

  const submit = (data: WorkspaceConflicts) => {
    setProblem(null);
    resolve.submit(data).catch((failure: unknown) => {
      if (failure instanceof ActionBusyError) return;
      const error = toApiError(failure instanceof ActionFailure ? failure.error : failure);
      setProblem(error.errorMessage);
      if (error.httpStatus === 409 && error.hasCode(CONFLICT_TIP_MOVED)) void conflicts.refetch();
    });
  };

  const setPick = (path: string, id: string, pick: ConflictPick) =>
    setPicks((all) => ({ ...all, [path]: { ...all[path], [id]: pick } }));

  const data = conflicts.data;
  const left = data ? unresolvedCount(data.files, picks) : 0;
  const nothing = !!data && data.files.length === 0;
  return (
    <PageFrame title={MSG.title} overline={MSG.overline} intro={nothing ? undefined : MSG.intro}>
      {conflicts.isError && (
        <LoadError title={MSG.loadFailed} error={conflicts.error} onRetry={() => void conflicts.refetch()} />
      )}
      {conflicts.isPending && <Loading label={MSG.loading} />}
      {data && nothing && (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="success">{MSG.nothing}</Alert>
          <Button variant="outlined" onClick={() => void navigate(dashboard)}>
            {MSG.backToDashboard}
          </Button>
        </Stack>
      )}
      {data &&
        data.files.map((file) => (
          <ConflictFileCard
            key={file.path}
            d={d}
            p={p}
            file={file}
            picks={picks[file.path]}
            onPick={(id, pick) => setPick(file.path, id, pick)}
          />
        ))}
      {data && data.merged.length > 0 && <MergedFiles files={data.merged} />}
      {data && !nothing && (
        // Stays in view at the bottom while the conflicts scroll by.
        <Paper
          component="section"
          aria-label={MSG.resolutionBar}
          elevation={3}
          sx={{ position: 'sticky', bottom: 0, zIndex: 2, p: 2 }}
        >
          <Stack spacing={1.5}>
            {problem && (
              <Alert severity="error" onClose={() => setProblem(null)}>
                {problem}
              </Alert>
            )}
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Typography role="status" color="text.secondary" sx={{ flex: 1 }}>
                {!canWrite ? MSG.noWrite : left > 0 ? MSG.chooseAll(left) : MSG.ready}
              </Typography>
              <PendingButton pending={resolve.pending} disabled={left > 0 || !canWrite} onClick={() => submit(data)}>
                {MSG.resolve}
              </PendingButton>
            </Stack>
          </Stack>
        </Paper>
      )}
    </PageFrame>
  );
}
