import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { toApiError } from '../api/errors';
import { PageFrame } from './PageFrame';

/** What a portal screen shows while the selection chain opens the portal (the user's workspace). */
export const OPENING_PORTAL = 'Opening the portal';

/** A loading line with an accessible name. */
export function Loading({ label }: { label: string }) {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', p: 1 }} role="progressbar" aria-label={label}>
      <CircularProgress size={18} aria-hidden />
      <Typography>{label}</Typography>
    </Stack>
  );
}

/** A portal screen's frame while the selection chain opens the portal. */
export function OpeningPortal({ title }: { title: string }) {
  return (
    <PageFrame title={title}>
      <Loading label={OPENING_PORTAL} />
    </PageFrame>
  );
}

/** A failed load: the title, the server's message (once) and a Retry button. */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        onRetry && (
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        )
      }
    >
      <Box component="span" sx={{ fontWeight: 600 }}>
        {title}
      </Box>
      {`: ${toApiError(error).errorMessage}`}
    </Alert>
  );
}
