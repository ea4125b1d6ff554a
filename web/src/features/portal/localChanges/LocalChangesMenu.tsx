import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DifferenceOutlinedIcon from '@mui/icons-material/DifferenceOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { portalApi, portalKeys, type ChangeType, type WorkspaceChange } from '../../../api/portal';
import { overlay } from '../../../app/overlay/overlayStore';
import { usePermission } from '../../../app/permissions/usePermission';
import { parsePortalRoute, portalRoutePath } from '../../../app/selection/portalChain';
import { useSelectionStore } from '../../../app/selection/selectionStore';
import { refreshWorkspaceViews, workspaceChanged } from '../../../app/selection/workspaceRefresh';
import { useSessionStore } from '../../../app/session/sessionStore';
import { showHttpError, toasts } from '../../../app/toasts/toastService';
import { commitMessage } from '../../../lib/validation';
import { formatDateTime } from '../../../lib/format';
import { invalidateWorkspace, useLocalChanges, useLocalCommits } from '../queries';
import { commitChanges, LOCAL_CHANGES_MESSAGES, revert, showFailure } from './commit';

const CHANGE_COLOR: Record<ChangeType, 'success' | 'info' | 'error'> = {
  ADD: 'success',
  MODIFY: 'info',
  DELETE: 'error',
};

function ChangeList({ changes, label }: { changes: Record<string, ChangeType>; label: string }) {
  const entries = Object.entries(changes).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <Typography color="text.secondary">No uncommitted changes</Typography>;
  return (
    <List dense aria-label={label} disablePadding>
      {entries.map(([path, type]) => (
        <ListItem
          key={path}
          disableGutters
          secondaryAction={<Chip size="small" label={type} color={CHANGE_COLOR[type]} />}
        >
          <ListItemText primary={path} slotProps={{ primary: { sx: { fontFamily: 'monospace', fontSize: 13 } } }} />
        </ListItem>
      ))}
    </List>
  );
}

const userName = (u: WorkspaceChange['user']) => {
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ');
  return full ? `${full} (${u.userName})` : u.userName;
};

/** Other users' workspaces on the branch (spec 3 §2 "Another user's local changes"). */
function OtherUsersChanges({ d, p, branch }: { d: string | number; p: string | number; branch: string }) {
  const me = useSessionStore((s) => s.user?.id);
  const [viewing, setViewing] = useState<WorkspaceChange | null>(null);
  const changes = useQuery({
    queryKey: portalKeys.wsChanges(d, p, branch),
    queryFn: () => portalApi.workspaceChanges(d, p, branch),
    refetchOnWindowFocus: 'always',
  });
  const others = (changes.data ?? []).filter((c) => String(c.user.id) !== String(me));
  return (
    <Box component="section" aria-label="Other users' changes">
      <Typography variant="subtitle2" component="h3" gutterBottom>
        Other users' changes
      </Typography>
      {changes.isError ? (
        <Typography color="error">Could not load other users' changes</Typography>
      ) : others.length === 0 ? (
        <Typography color="text.secondary">
          {changes.isPending ? 'Loading…' : 'No other users work on this branch'}
        </Typography>
      ) : (
        <List dense disablePadding aria-label="Other users">
          {others.map((entry) => (
            <ListItem
              key={entry.user.id}
              disableGutters
              secondaryAction={
                <Button size="small" onClick={() => setViewing(entry)}>
                  View changes
                </Button>
              }
            >
              <ListItemText
                primary={userName(entry.user)}
                secondary={`Ahead ${entry.aheadCount} · Behind ${entry.behindCount} · ${
                  entry.hasChanges
                    ? `${Object.keys(entry.changes ?? {}).length} uncommitted changes`
                    : 'No uncommitted changes'
                }`}
              />
            </ListItem>
          ))}
        </List>
      )}
      <Dialog
        open={!!viewing}
        onClose={() => setViewing(null)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="other-changes-title"
      >
        <DialogTitle id="other-changes-title">
          {viewing ? `Local changes of ${userName(viewing.user)}` : ''}
        </DialogTitle>
        <DialogContent>
          <Typography color="text.secondary" gutterBottom>
            Branch {viewing?.branch} · Ahead {viewing?.aheadCount} · Behind {viewing?.behindCount}
          </Typography>
          {viewing && <ChangeList changes={viewing.changes ?? {}} label="Changed files" />}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setViewing(null)}>Close</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/**
 * The header's local-changes menu (spec 3 §2, §4): the count of uncommitted changes, and a
 * panel with the local commits (Revert To), the uncommitted changes, the commit message box
 * (Submit), Revert All and other users' changes on the branch.
 */
export function LocalChangesMenu() {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const branch = useSelectionStore((s) => s.branch);
  const language = useSelectionStore((s) => s.language);
  const canWrite = usePermission('portal:w');
  const canWriteTranslations = usePermission('translation:w');
  const canRead = usePermission('portal:r');
  const fetchLocal = !!portal && (canWrite || canWriteTranslations);
  const d = domain?.id;
  const p = portal?.id;
  const local = useLocalChanges(d, p, fetchLocal);
  const commits = useLocalCommits(d, p, fetchLocal);
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  // A failed local-commits fetch, once per failure (spec 3 §8).
  const commitsError = commits.isError ? commits.error : null;
  useEffect(() => {
    if (commitsError) showFailure(LOCAL_CHANGES_MESSAGES.localCommitsFailed, commitsError);
  }, [commitsError, commits.errorUpdatedAt]);

  if (!domain || !portal || !branch || d === undefined || p === undefined || !canRead) return null;

  const changes = local.data?.changes ?? {};
  const count = Object.keys(changes).length;
  const messageError = commitMessage(message);
  const showError = touched || message !== '';
  const refresh = () => invalidateWorkspace(client, d, p);

  const submit = async () => {
    if (messageError) return;
    const outcome = await commitChanges(d, p, message);
    if (outcome.ok) {
      setMessage('');
      setTouched(false);
      setConflict(null);
      setAnchor(null);
    } else if (outcome.conflict) {
      setConflict(outcome.conflict);
    }
    void refresh();
  };

  // After a revert the workspace's files are what they were: every view derived from them
  // (settings, the selection's languages, the file watcher…) loads again.
  const revertAll = async () => {
    setAnchor(null);
    if (!(await toasts.prompt(LOCAL_CHANGES_MESSAGES.revertAllPrompt))) return;
    if (await revert(d, p)) await workspaceChanged(client, { domainId: d, portalId: p, branch }, { reopen: true });
  };

  const revertTo = async (commitId: string, commitMsg: string) => {
    setAnchor(null);
    if (!(await toasts.prompt(LOCAL_CHANGES_MESSAGES.revertToPrompt(commitMsg)))) return;
    if (await revert(d, p, commitId))
      await workspaceChanged(client, { domainId: d, portalId: p, branch }, { reopen: true });
  };

  const resetWorkspace = async () => {
    overlay.show('Resetting Workspace');
    let target: string;
    try {
      // The server answers where the workspace now is: this branch, or the portal's active
      // branch when this one was deleted.
      const status = await portalApi.reset(d, p, branch);
      target = status?.branch || branch;
    } catch (error) {
      showHttpError(error, 'Could not reset the workspace');
      return;
    } finally {
      overlay.hide();
    }
    setConflict(null);
    setAnchor(null);
    const lang = language ?? parsePortalRoute(location.pathname)?.language ?? 'en_GB';
    if (target === branch) {
      await workspaceChanged(client, { domainId: d, portalId: p, branch }, { reopen: true });
    } else {
      // The selection chain opens the other branch when the URL names it.
      void refreshWorkspaceViews(client, d, p);
    }
    void navigate(portalRoutePath(d, p, target, lang, 'dashboard'));
  };

  const label = fetchLocal ? `Local changes: ${count}` : 'Local changes';
  return (
    <>
      <Tooltip title="Local changes">
        <IconButton aria-label={label} aria-haspopup="dialog" onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={count} color="warning" invisible={!fetchLocal || count === 0} aria-hidden>
            <DifferenceOutlinedIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: { role: 'region', 'aria-label': 'Local changes', sx: { width: 560, maxHeight: '80vh', p: 2 } },
        }}
      >
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Local changes on {branch}
          </Typography>
          {conflict && (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void resetWorkspace()}>
                  Reset Workspace
                </Button>
              }
            >
              {conflict}
            </Alert>
          )}
          {fetchLocal && (
            <>
              <Box component="section" aria-label="Local commits">
                <Typography variant="subtitle2" component="h3" gutterBottom>
                  Local commits
                </Typography>
                {commits.data && commits.data.length > 0 ? (
                  <Table size="small" aria-label="Local commits table">
                    <TableHead>
                      <TableRow>
                        <TableCell>Message</TableCell>
                        <TableCell>Time</TableCell>
                        {canWrite && <TableCell>Action</TableCell>}
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {commits.data.map((c) => (
                        <TableRow key={c.commitId}>
                          <TableCell>{c.message}</TableCell>
                          <TableCell>{formatDateTime(c.time)}</TableCell>
                          {canWrite && (
                            <TableCell>
                              <Button size="small" onClick={() => void revertTo(c.commitId, c.message)}>
                                Revert To
                              </Button>
                            </TableCell>
                          )}
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                ) : (
                  <Typography color="text.secondary">No local commits</Typography>
                )}
              </Box>
              <Box component="section" aria-label="Uncommitted changes">
                <Typography variant="subtitle2" component="h3" gutterBottom>
                  Uncommitted changes
                </Typography>
                <ChangeList changes={changes} label="Uncommitted files" />
              </Box>
              {canWrite && (
                <Stack spacing={1}>
                  <TextField
                    label="Commit message"
                    multiline
                    minRows={2}
                    value={message}
                    onChange={(e) => {
                      setMessage(e.target.value);
                      setTouched(true);
                    }}
                    onBlur={() => setTouched(true)}
                    error={showError && !!messageError}
                    helperText={showError ? messageError : ' '}
                  />
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    <Button color="warning" disabled={count === 0} onClick={() => void revertAll()}>
                      Revert All
                    </Button>
                    <Button variant="contained" disabled={!!messageError} onClick={() => void submit()}>
                      Submit
                    </Button>
                  </Stack>
                </Stack>
              )}
              <Divider />
            </>
          )}
          <OtherUsersChanges d={d} p={p} branch={branch} />
        </Stack>
      </Popover>
    </>
  );
}
