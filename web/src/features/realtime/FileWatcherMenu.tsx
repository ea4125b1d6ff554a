import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import type { ChangeType } from '../../api/portal';
import { HeaderPopover } from '../../ui/HeaderPopover';
import { useWorkspaceStore } from './workspaceStore';

/** Watcher menu delay (spec 3 §9): the tooltip opens after 1000 ms. */
export const WATCHER_MENU_DELAY_MS = 1000;

const CHANGE_COLOR: Record<ChangeType, 'success' | 'info' | 'error'> = {
  ADD: 'success',
  MODIFY: 'info',
  DELETE: 'error',
};

/**
 * The header's file-watcher menu (spec 1 §2.1, spec 3 §4 "Branch switching"): the number of
 * files changed in the open workspace, a spinner while LOADING, and the list of files. Renders
 * nothing while no portal is open.
 */
export function FileWatcherMenu() {
  const watcher = useWorkspaceStore((s) => s.fileWatcher);
  if (!watcher.key) return null;
  const loading = watcher.status === 'LOADING';
  const entries = Object.entries(watcher.changes).sort(([a], [b]) => a.localeCompare(b));
  const label = loading ? 'Changed files: loading' : `Changed files: ${entries.length}`;
  return (
    <HeaderPopover
      label={label}
      tooltip="Changed files"
      tooltipDelay={WATCHER_MENU_DELAY_MS}
      triggerProps={{ color: 'inherit' }}
      icon={
        loading ? (
          <CircularProgress size={20} color="inherit" aria-label="Watching files" />
        ) : (
          <Badge badgeContent={entries.length} color="secondary" max={999} aria-hidden>
            <DescriptionOutlinedIcon />
          </Badge>
        )
      }
      kind="dialog"
      panelLabel="Changed files"
    >
      <Box sx={{ width: 360, maxWidth: 'calc(100vw - 32px)' }}>
        <Typography variant="subtitle1" component="h2" sx={{ px: 2, py: 1 }}>
          Changed files
        </Typography>
        <Divider />
        {loading ? (
          <Typography color="text.secondary" sx={{ px: 2, py: 3 }}>
            Loading…
          </Typography>
        ) : entries.length === 0 ? (
          <Typography color="text.secondary" sx={{ px: 2, py: 3 }}>
            No changed files
          </Typography>
        ) : (
          <List dense aria-label="Changed files" sx={{ maxHeight: 420, overflowY: 'auto' }}>
            {entries.map(([path, type]) => (
              <ListItem key={path} secondaryAction={<Chip size="small" label={type} color={CHANGE_COLOR[type]} />}>
                <ListItemText
                  primary={path}
                  slotProps={{
                    primary: { sx: { fontFamily: 'monospace', fontSize: 13, wordBreak: 'break-all', pr: 6 } },
                  }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Box>
    </HeaderPopover>
  );
}
