import EditNoteIcon from '@mui/icons-material/EditNote';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { PRESENCE_MESSAGES as MSG } from './messages';
import { displayName, type Activity } from './usePortalActivity';

/** The users changing a file: editing it now, or with uncommitted changes to it (viewers are left out). */
export function changingUsers(activity: readonly Activity[] | undefined): Activity[] {
  return (activity ?? []).filter((a) => a.kind !== 'viewing');
}

/** 'Bob Builder (editing), Carl Jones (uncommitted changes)'. */
export function changingText(activity: readonly Activity[]): string {
  return activity
    .map((a) => `${displayName(a.user)} (${a.kind === 'editing' ? MSG.editingShort : MSG.uncommittedShort})`)
    .join(', ');
}

/**
 * A small mark on a file (File Explorer) or page (Page Manager) that other users are changing,
 * with a tooltip naming who; its accessible name says the same. Nothing when nobody is.
 */
export function OthersMark({
  activity,
  what = 'file',
}: {
  activity: readonly Activity[] | undefined;
  what?: 'file' | 'page';
}) {
  const changing = changingUsers(activity);
  if (changing.length === 0) return null;
  const label = MSG.changedBy(what, changingText(changing));
  return (
    <Tooltip title={label}>
      <Box
        component="span"
        role="img"
        aria-label={label}
        tabIndex={0}
        data-testid="others-mark"
        sx={{ display: 'inline-flex', alignItems: 'center', color: 'warning.main', verticalAlign: 'middle' }}
      >
        <EditNoteIcon fontSize="small" aria-hidden />
      </Box>
    </Tooltip>
  );
}
