/** The Portal Dashboard's Readiness card (issue 29): the workspace's counts per severity and a link to the screen. */
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { Id } from '../../api/portal';
import { paths } from '../../core/paths';
import { usePermission } from '../../core/usePermission';
import { LoadError } from '../../ui/Loading';
import { SeverityCounts } from './Counts';
import { READINESS_MESSAGES as MSG } from './messages';
import { useWorkspaceReadiness } from './useReadiness';

export function ReadinessCard({ d, p, branch, language }: { d: Id; p: Id; branch: string; language: string }) {
  const canRead = usePermission('asset:r');
  const report = useWorkspaceReadiness(String(d), String(p), canRead);
  if (!canRead) return null;
  return (
    <Card variant="outlined" component="section" aria-labelledby="readiness-card-title" sx={{ flex: 1, minWidth: 280 }}>
      <CardContent>
        <Stack spacing={1.5}>
          <Typography id="readiness-card-title" variant="h6" component="h2">
            {MSG.cardTitle}
          </Typography>
          {report.data ? (
            <SeverityCounts summary={report.data.summary} label={MSG.cardTitle} />
          ) : report.error ? (
            <LoadError title={MSG.loadFailed} error={report.error} onRetry={() => void report.refetch()} />
          ) : (
            <div>
              <Typography id="readiness-card-checking" variant="body2" sx={{ mb: 0.5 }}>
                {MSG.checking}
              </Typography>
              <LinearProgress aria-labelledby="readiness-card-checking" />
            </div>
          )}
          <div>
            <Button component={RouterLink} to={paths.portalReadiness(d, p, branch, language)}>
              {MSG.screenLink}
            </Button>
          </div>
        </Stack>
      </CardContent>
    </Card>
  );
}
