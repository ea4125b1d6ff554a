import GroupIcon from '@mui/icons-material/GroupOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { Id } from '../../api/portal';
import { PRESENCE_MESSAGES as MSG } from './messages';
import { displayName, useFileActivity, type Activity } from './usePortalActivity';

export interface PresenceBarProps {
  domain: Id;
  portal: Id;
  /** The file open in the editor (workspace path; a leading slash is ignored); null: none yet. */
  path: string | null | undefined;
}

/** One line of the bar: 'Bob Builder is editing this file'. */
export function activityText(activity: Activity): string {
  const name = displayName(activity.user);
  return activity.kind === 'editing'
    ? MSG.editing(name)
    : activity.kind === 'uncommitted'
      ? MSG.uncommitted(name)
      : MSG.viewing(name);
}

/**
 * Shown at the top of an editor (issue 21 item 5), before the author starts typing: who else is
 * editing or viewing the file, and who has uncommitted changes to it. Nothing when nobody does.
 */
export function PresenceBar({ domain, portal, path }: PresenceBarProps) {
  const activity = useFileActivity(domain, portal, path);
  if (activity.length === 0) return null;
  const changing = activity.some((a) => a.kind !== 'viewing');
  return (
    <Alert
      severity={changing ? 'warning' : 'info'}
      icon={<GroupIcon fontSize="inherit" />}
      role="status"
      aria-label={MSG.barLabel}
      data-testid="presence-bar"
    >
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {activity.map((a) => (
          <li key={a.user.id}>{activityText(a)}</li>
        ))}
      </Box>
    </Alert>
  );
}
