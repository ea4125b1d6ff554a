import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useDomains } from '../../core/useDomains';
import { useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';

function domainCountText(count: number): string {
  if (count === 0) return 'You do not have access to any domain yet. Please contact your administrator.';
  return count === 1 ? 'You have access to 1 domain.' : `You have access to ${count} domains.`;
}

/** The welcome dashboard at the empty route (spec 1 §2.1). */
export default function WelcomeDashboard() {
  const user = useSessionStore((s) => s.user);
  const domain = useSelectionStore((s) => s.domain);
  const domains = useDomains();
  const greeting = user?.firstName?.trim() ? `Welcome, ${user.firstName.trim()}` : 'Welcome';

  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <Typography variant="h4" component="h1">
        {greeting}
      </Typography>
      <Typography color="text.secondary">
        {domain ? `You are working in the domain ${domain.name}.` : 'Select a domain in the side navigation to start.'}
      </Typography>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="overline" component="h2">
            Your domains
          </Typography>
          {domains.isPending && (
            <Stack
              direction="row"
              spacing={1.5}
              sx={{ alignItems: 'center' }}
              role="progressbar"
              aria-label="Loading Domains"
            >
              <CircularProgress size={18} aria-hidden />
              <Typography>Loading Domains</Typography>
            </Stack>
          )}
          {domains.isError && (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void domains.refetch()}>
                  Retry
                </Button>
              }
            >
              Failed to load the domains
            </Alert>
          )}
          {domains.isSuccess && (
            <>
              <Typography variant="h3" component="p" data-testid="domain-count">
                {domains.data.length}
              </Typography>
              <Typography color="text.secondary">{domainCountText(domains.data.length)}</Typography>
            </>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
