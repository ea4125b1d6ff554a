import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { portalApi, portalKeys, type Id, type WorkspaceChange } from '../../../api/portal';
import { useSessionStore } from '../../../core/sessionStore';
import { useWorkspaceStore } from '../../realtime';

export const OTHERS_MESSAGES = {
  title: 'Others working here',
  none: 'Nobody else has uncommitted work in this portal',
  failed: "Could not load other users' work",
} as const;

/**
 * Other users' workspaces: the branch's list (wsChanges), with the entries the realtime
 * channel keeps live for the whole portal taking precedence (features/realtime); without the
 * caller, and only those with uncommitted changes or unpushed commits.
 */
export function othersWithWork(
  fetched: readonly WorkspaceChange[],
  live: readonly WorkspaceChange[],
  me: Id | undefined,
): WorkspaceChange[] {
  const byUser = new Map<string, WorkspaceChange>();
  for (const c of fetched) byUser.set(String(c.user.id), c);
  // live is newest first: the first entry of a user wins.
  for (const c of [...live].reverse()) byUser.set(String(c.user.id), c);
  return [...byUser.values()]
    .filter((c) => String(c.user.id) !== String(me))
    .filter((c) => c.hasChanges || Object.keys(c.changes ?? {}).length > 0 || c.aheadCount > 0)
    .sort((a, b) => displayName(a).localeCompare(displayName(b)));
}

const displayName = (c: WorkspaceChange) =>
  [c.user.firstName, c.user.lastName].filter(Boolean).join(' ') || c.user.userName;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function summary(c: WorkspaceChange): string {
  const files = Object.keys(c.changes ?? {}).length;
  const parts = [];
  if (files > 0) parts.push(`${plural(files, 'uncommitted file', 'uncommitted files')}`);
  else if (c.hasChanges) parts.push('Uncommitted changes');
  if (c.aheadCount > 0) parts.push(plural(c.aheadCount, 'unpushed commit', 'unpushed commits'));
  if (c.behindCount > 0) parts.push(`${plural(c.behindCount, 'commit', 'commits')} behind`);
  return parts.join(' · ');
}

/** Who else has uncommitted work in this portal (spec 3 §1: several users work on a portal at once). */
export function OthersWork({ d, p, branch }: { d: Id; p: Id; branch: string }) {
  const me = useSessionStore((s) => s.user?.id);
  const live = useWorkspaceStore((s) => s.otherUsersChanges[String(p)]);
  const fetched = useQuery({
    queryKey: portalKeys.wsChanges(d, p, branch),
    queryFn: () => portalApi.workspaceChanges(d, p, branch),
    refetchOnWindowFocus: 'always',
  });
  const others = othersWithWork(fetched.data ?? [], live ?? [], me);

  return (
    <Card variant="outlined" component="section" aria-labelledby="others-work-title" sx={{ flex: 1, minWidth: 280 }}>
      <CardContent>
        <Typography id="others-work-title" variant="h6" component="h2" gutterBottom>
          {OTHERS_MESSAGES.title}
        </Typography>
        {fetched.isError && others.length === 0 ? (
          <Typography color="error">{OTHERS_MESSAGES.failed}</Typography>
        ) : others.length === 0 ? (
          <Typography color="text.secondary">{fetched.isPending ? 'Loading…' : OTHERS_MESSAGES.none}</Typography>
        ) : (
          <List dense disablePadding aria-label="Users with uncommitted work">
            {others.map((c) => (
              <ListItem
                key={c.user.id}
                disableGutters
                secondaryAction={<Chip size="small" variant="outlined" label={c.branch} />}
              >
                <ListItemText
                  primary={`${displayName(c)} (${c.user.userName})`}
                  secondary={summary(c)}
                  sx={{ pr: 10 }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
