import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { toApiError } from '../../api/errors';
import { useSessionStore } from '../../app/session/sessionStore';

/** The frame of an Administration screen: an h1 title, an optional intro and actions. */
export function AdminPage({
  title,
  intro,
  actions,
  children,
}: {
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack spacing={3}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {actions}
      </Stack>
      {intro && <Typography color="text.secondary">{intro}</Typography>}
      {children}
    </Stack>
  );
}

/** A loading line with an accessible name. */
export function Loading({ label }: { label: string }) {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', p: 1 }} role="progressbar" aria-label={label}>
      <CircularProgress size={18} aria-hidden />
      <Typography>{label}</Typography>
    </Stack>
  );
}

/** A failed load with the server's message and a Retry button. */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    >
      <Box component="span" sx={{ fontWeight: 600 }}>
        {title}
      </Box>
      {`: ${toApiError(error).errorMessage}`}
    </Alert>
  );
}

/** Spec 1 §6: the text shown where a permission is missing. */
export const NO_PERMISSION_MESSAGE =
  'You do not have the right permission to access to this section. Please contact your Administrator';

/**
 * Renders its children for admins only. The side navigation hides these
 * screens from other users; this covers a typed-in URL (the API would refuse
 * their calls anyway).
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const isAdmin = useSessionStore((s) => !!s.user?.admin);
  if (!isAdmin) {
    return (
      <Alert severity="warning" role="alert">
        {NO_PERMISSION_MESSAGE}
      </Alert>
    );
  }
  return children;
}
