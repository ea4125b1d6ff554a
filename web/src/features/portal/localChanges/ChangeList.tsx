import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ChangeType } from '../../../api/portal';
import { CONFLICT_MESSAGES } from '../../conflicts';

const CHANGE_COLOR: Record<ChangeType, 'success' | 'info' | 'error'> = {
  ADD: 'success',
  MODIFY: 'info',
  DELETE: 'error',
};

/** Changed files with their change chip; with `onReview`, a Review button per file. */
export function ChangeList({
  changes,
  label,
  onReview,
}: {
  changes: Record<string, ChangeType>;
  label: string;
  onReview?: (path: string) => void;
}) {
  const entries = Object.entries(changes).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <Typography color="text.secondary">No uncommitted changes</Typography>;
  return (
    <List dense aria-label={label} disablePadding>
      {entries.map(([path, type]) => (
        <ListItem
          key={path}
          disableGutters
          secondaryAction={
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Chip size="small" label={type} color={CHANGE_COLOR[type]} />
              {onReview && (
                <Button size="small" aria-label={CONFLICT_MESSAGES.reviewFile(path)} onClick={() => onReview(path)}>
                  {CONFLICT_MESSAGES.review}
                </Button>
              )}
            </Stack>
          }
          sx={onReview ? { pr: 18 } : undefined}
        >
          <ListItemText
            primary={path}
            slotProps={{ primary: { sx: { fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' } } }}
          />
        </ListItem>
      ))}
    </List>
  );
}
