import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { conflictKeys, conflictsApi, type ReviewSubject } from '../../api/conflicts';
import type { ChangeType, Id } from '../../api/portal';
import { LoadError, Loading } from '../../ui/Loading';
import { DiffView } from './DiffView';
import { CONFLICT_MESSAGES as MSG } from './messages';

export interface ReviewDialogProps {
  open: boolean;
  onClose: () => void;
  d: Id;
  p: Id;
  /** Whose changes: mine (the next commit; default), another user's ({ user }) or a commit ({ commit }). */
  subject?: ReviewSubject;
  /** The dialog's title (its accessible name). */
  title?: string;
  /** The files to page through; loaded from the review's file list when omitted. */
  files?: Record<string, ChangeType>;
  /** The file shown first (default: the first). */
  startPath?: string;
}

/**
 * Review of changes, one file at a time (DiffView) with the list of changed files and
 * Previous / Next: the caller's next commit, another user's workspace or a commit.
 */
export function ReviewDialog({ open, onClose, title = MSG.reviewTitle, ...rest }: ReviewDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xl" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>{open && <ReviewContent {...rest} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

function ReviewContent({
  d,
  p,
  subject = {},
  files,
  startPath,
}: Omit<ReviewDialogProps, 'open' | 'onClose' | 'title'>) {
  const list = useQuery({
    queryKey: conflictKeys.reviewFiles(d, p, subject),
    queryFn: () => conflictsApi.reviewFiles(d, p, subject),
    enabled: files === undefined,
    retry: false,
  });
  const changes = files ?? list.data?.files;
  const paths = changes ? Object.keys(changes).sort((a, b) => a.localeCompare(b)) : [];
  const [chosen, setChosen] = useState<string | undefined>(startPath);
  const index = Math.max(0, chosen ? paths.indexOf(chosen) : 0);
  const current = paths[index] as string | undefined;

  if (!changes) {
    if (list.isError)
      return <LoadError title={MSG.reviewFailed} error={list.error} onRetry={() => void list.refetch()} />;
    return <Loading label={MSG.reviewLoading} />;
  }
  if (!current) return <Typography color="text.secondary">{MSG.reviewEmpty}</Typography>;

  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      {paths.length > 1 && (
        <Box sx={{ width: { md: 280 }, flex: 'none' }}>
          <List dense disablePadding aria-label={MSG.reviewFiles}>
            {paths.map((path) => (
              <ListItem key={path} disablePadding>
                <ListItemButton
                  selected={path === current}
                  aria-current={path === current ? 'true' : undefined}
                  onClick={() => setChosen(path)}
                >
                  <ListItemText
                    primary={path}
                    secondary={changes[path]}
                    slotProps={{ primary: { sx: { fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' } } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Box>
      )}
      <Stack spacing={1.5} sx={{ flex: 1, minWidth: 0 }}>
        {paths.length > 1 && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography sx={{ flex: 1 }}>{MSG.position(index + 1, paths.length)}</Typography>
            <Button size="small" disabled={index === 0} onClick={() => setChosen(paths[index - 1])}>
              {MSG.previous}
            </Button>
            <Button size="small" disabled={index === paths.length - 1} onClick={() => setChosen(paths[index + 1])}>
              {MSG.next}
            </Button>
          </Stack>
        )}
        <FileDiff key={current} d={d} p={p} path={current} subject={subject} />
      </Stack>
    </Stack>
  );
}

function FileDiff({ d, p, path, subject }: { d: Id; p: Id; path: string; subject: ReviewSubject }) {
  const review = useQuery({
    queryKey: conflictKeys.review(d, p, path, subject),
    queryFn: () => conflictsApi.review(d, p, path, subject),
    retry: false,
  });
  if (review.isError)
    return <LoadError title={MSG.reviewFailed} error={review.error} onRetry={() => void review.refetch()} />;
  if (!review.data) return <Loading label={MSG.reviewLoading} />;
  return <DiffView d={d} p={p} review={review.data} subject={subject} />;
}
