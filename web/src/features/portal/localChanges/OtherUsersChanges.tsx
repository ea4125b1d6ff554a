import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { portalApi, portalKeys, type Id, type WorkspaceChange } from '../../../api/portal';
import { useSessionStore } from '../../../core/sessionStore';
import { CONFLICT_MESSAGES, ReviewDialog } from '../../conflicts';
import { ChangeList } from './ChangeList';
import { usePermission } from '../../../core/usePermission';

export const userName = (u: WorkspaceChange['user']) => {
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ');
  return full ? `${full} (${u.userName})` : u.userName;
};

/** Other users' workspaces on the branch (spec 3 §2 "Another user's local changes"), each file with Review. */
export function OtherUsersChanges({ d, p, branch }: { d: Id; p: Id; branch: string }) {
  const me = useSessionStore((s) => s.user?.id);
  const [viewing, setViewing] = useState<WorkspaceChange | null>(null);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const canReadFiles = usePermission('asset:r');
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
          {viewing && (
            <ChangeList
              changes={viewing.changes ?? {}}
              label="Changed files"
              onReview={canReadFiles ? setReviewing : undefined}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setViewing(null)}>Close</Button>
        </DialogActions>
      </Dialog>
      {viewing && (
        <ReviewDialog
          open={reviewing !== null}
          onClose={() => setReviewing(null)}
          d={d}
          p={p}
          subject={{ user: viewing.user.id }}
          title={CONFLICT_MESSAGES.reviewUserTitle(userName(viewing.user))}
          files={viewing.changes ?? {}}
          startPath={reviewing ?? undefined}
        />
      )}
    </Box>
  );
}
