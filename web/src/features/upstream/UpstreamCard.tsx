import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { usePermission } from '../../core/usePermission';
import type { Id } from '../../api/portal';
import { upstreamApi, upstreamKeys } from '../../api/upstream';
import { UPSTREAM_MESSAGES as MSG } from './messages';
import { UpstreamStateChip, UpstreamSummary } from './UpstreamSummary';

/**
 * The Portal Dashboard's Upstream card: for a portal created from a git URL, its git host, the
 * state (in sync, ahead, behind, diverged, error with the reason), the last sync and Sync now
 * (portal:w). Nothing for other portals.
 */
export function UpstreamCard({ d, p }: { d: Id; p: Id }) {
  const canRead = usePermission('portal:r');
  const canSync = usePermission('portal:w');
  const status = useQuery({
    queryKey: upstreamKeys.status(d, p),
    queryFn: () => upstreamApi.status(d, p),
    enabled: canRead,
  });
  if (!canRead || !status.data?.configured) return null;
  return (
    <Card variant="outlined" component="section" aria-label={MSG.cardTitle}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2">
            {MSG.cardTitle}
          </Typography>
          <UpstreamStateChip state={status.data.state} />
        </Stack>
        <UpstreamSummary d={d} p={p} status={status.data} canSync={canSync} />
      </CardContent>
    </Card>
  );
}
