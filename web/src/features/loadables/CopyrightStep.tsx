import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Copyright } from '../../api/loadables';
import { formatSize } from '../../lib/format';
import { LoadError, Loading } from '../../ui/Loading';
import { LOADABLE_MESSAGES as MSG } from './messages';

/**
 * Step 3: the copyright statement, the commit's media files it covers, the client address as
 * the server reports it, and 'I accept' (required).
 */
export function CopyrightStep({
  copyright,
  loading,
  error,
  onRetry,
  accepted,
  onAccept,
  showErrors,
}: {
  copyright: Copyright | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  accepted: boolean;
  onAccept: (accepted: boolean) => void;
  showErrors: boolean;
}) {
  if (error) return <LoadError title={MSG.copyrightFailed} error={error} onRetry={onRetry} />;
  if (loading || !copyright) return <Loading label="Loading the copyright statement" />;
  const assets = copyright.assets ?? [];
  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <Paper variant="outlined" sx={{ p: 2, whiteSpace: 'pre-wrap' }}>
        <Typography>{copyright.statement}</Typography>
      </Paper>
      <Typography variant="subtitle2" component="h2">
        {MSG.assets} ({assets.length})
      </Typography>
      {assets.length === 0 ? (
        <Typography color="text.secondary">{MSG.noAssets}</Typography>
      ) : (
        <Paper variant="outlined" sx={{ maxHeight: 240, overflow: 'auto' }}>
          <List dense aria-label={MSG.assets}>
            {assets.map((a) => (
              <ListItem key={a.path}>
                <ListItemText primary={a.path} secondary={formatSize(a.size)} />
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
      <Typography color="text.secondary">
        {MSG.ipAddress}: {copyright.metaData.ipAddress || '—'}
      </Typography>
      <div>
        <FormControlLabel
          control={<Checkbox checked={accepted} onChange={(e) => onAccept(e.target.checked)} />}
          label={MSG.accept}
        />
        {showErrors && !accepted && <FormHelperText error>{MSG.copyright}</FormHelperText>}
      </div>
    </Stack>
  );
}
