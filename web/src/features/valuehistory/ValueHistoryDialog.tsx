/**
 * The history of one value (issue 33): a timeline, newest first, of who changed it, when, with
 * which message, and what it was before and after (languages side by side for a translation
 * key); "Restore this value" puts it back as it was after that change, "Show commit" opens
 * the commit review.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Id } from '../../api/portal';
import { portalKeys } from '../../api/portal';
import { valueHistoryApi, valueHistoryKeys, type ValueChange, type ValueSubject } from '../../api/valueHistory';
import { requestCommitReview } from '../../lib/commitReview';
import { formatDateTime } from '../../lib/format';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { useAction } from '../../ui/useAction';
import { ChangeView } from './ChangeView';
import { display, timeline, type TimelineItem } from './model';
import { VALUE_HISTORY_MESSAGES as MSG } from './messages';

export interface ValueHistoryDialogProps {
  open: boolean;
  onClose: () => void;
  d: Id;
  p: Id;
  subject: ValueSubject;
  /** What the value is, for people ("nav.home", "menu › Soup › title", "Home page"). */
  what: string;
  /** The caller may save the value: Restore is offered. */
  canRestore?: boolean;
  /** Told after a restore wrote the value (the host reloads what it shows). */
  onRestored?: () => void;
}

export function ValueHistoryDialog({ open, onClose, what, ...rest }: ValueHistoryDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="lg" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{MSG.historyOf(what)}</DialogTitle>
      <DialogContent dividers>{open && <HistoryContent {...rest} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

interface Pick {
  change: ValueChange;
}

function HistoryContent({
  d,
  p,
  subject,
  canRestore = false,
  onRestored,
}: Omit<ValueHistoryDialogProps, 'open' | 'onClose' | 'what'>) {
  const query = useQuery({
    queryKey: valueHistoryKeys.history(d, p, subject),
    queryFn: () => valueHistoryApi.history(d, p, subject),
    retry: false,
    staleTime: 0,
  });
  const [pick, setPick] = useState<Pick | null>(null);
  const restore = useAction({
    action: ({ change }: Pick) => valueHistoryApi.restore(d, p, subject, change.commit, change.lang),
    success: (r) => (r.changed ? MSG.restored : MSG.unchanged),
    failure: MSG.restoreFailed,
    invalidate: [portalKeys.workspace(d, p)],
    onSuccess: () => {
      setPick(null);
      onRestored?.();
    },
  });

  if (query.isError)
    return <LoadError title={MSG.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  if (!query.data) return <Loading label={MSG.loading} />;
  const items = timeline(query.data.entries);
  if (items.length === 0) return <Typography color="text.secondary">{MSG.empty}</Typography>;
  const sideBySide = subject.kind === 'translation' && !subject.lang;

  return (
    <>
      <Box component="ol" aria-label={MSG.timeline} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {items.map((item) => (
          <Box component="li" key={item.id} sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
            <ItemHeader d={d} p={p} item={item} />
            <Stack spacing={1} sx={{ mt: 1 }}>
              {item.changes.map((change) => (
                <Stack
                  key={change.lang ?? 'value'}
                  direction={{ xs: 'column', md: 'row' }}
                  spacing={2}
                  sx={{ alignItems: 'flex-start' }}
                >
                  {sideBySide && (
                    <Typography sx={{ minWidth: 64, fontWeight: 600 }} component="span">
                      {change.lang}
                    </Typography>
                  )}
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <ChangeView d={d} p={p} change={change} />
                  </Box>
                  {canRestore && !item.uncommitted && (
                    <Button
                      size="small"
                      variant="outlined"
                      onClick={() => setPick({ change })}
                      aria-label={`${sideBySide && change.lang ? MSG.restoreIn(change.lang) : MSG.restore}: ${item.message}`}
                    >
                      {sideBySide && change.lang ? MSG.restoreIn(change.lang) : MSG.restore}
                    </Button>
                  )}
                </Stack>
              ))}
            </Stack>
          </Box>
        ))}
      </Box>
      <ConfirmDialog
        open={pick !== null}
        title={MSG.restoreTitle}
        message={pick ? MSG.restoreMessage(display(pick.change.new)) : ''}
        confirmLabel={MSG.restore}
        pending={restore.pending}
        maxWidth="sm"
        onConfirm={() => pick && restore.run(pick)}
        onClose={() => setPick(null)}
      />
    </>
  );
}

function ItemHeader({ d, p, item }: { d: Id; p: Id; item: TimelineItem }) {
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
      <Typography component="span" sx={{ fontWeight: 600 }}>
        {item.author || '—'}
      </Typography>
      <Typography component="span" color="text.secondary">
        {item.uncommitted ? MSG.uncommitted : formatDateTime(item.time)}
      </Typography>
      {!item.uncommitted && (
        <>
          <Typography component="span" sx={{ flex: 1, minWidth: 160 }}>
            {item.message}
          </Typography>
          <Button
            size="small"
            onClick={() => requestCommitReview({ d, p, commit: item.commit, title: MSG.commitTitle(item.commit) })}
            aria-label={`${MSG.showCommit} ${item.commit.slice(0, 8)}: ${item.message}`}
          >
            {MSG.showCommit}
          </Button>
        </>
      )}
    </Stack>
  );
}
