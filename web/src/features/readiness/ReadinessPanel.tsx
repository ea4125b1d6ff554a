/**
 * The readiness of one commit, compact (issue 29 item 4): the Create Loadable wizard shows the
 * commit being packaged, the approval the loadable's commit. Counts, the first errors, whether
 * the gate refuses approval, and a link to the Readiness screen.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../core/paths';
import { usePermission } from '../../core/usePermission';
import { LoadError } from '../../ui/Loading';
import { SeverityCounts } from './Counts';
import { READINESS_MESSAGES as MSG } from './messages';
import { compareFindings, countsText, locationOf } from './model';
import { useCommitReadiness, useReadinessSettings } from './queries';

/** How many errors the panel lists. */
export const FIRST_ERRORS = 3;

export function ReadinessPanel({
  domain,
  portal,
  branch,
  language,
  commitId,
}: {
  domain: string;
  portal: string;
  branch: string;
  language: string;
  commitId: string;
}) {
  const titleId = useId();
  const report = useCommitReadiness(domain, portal, commitId);
  const settings = useReadinessSettings(domain, portal, usePermission('portal:r'));
  const errors = (report.data?.findings ?? []).filter((f) => f.severity === 'error').sort(compareFindings);
  const title = MSG.commitTitle(commitId.slice(0, 10));
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Stack spacing={1.5}>
          <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {title}
          </Typography>
          {report.data ? (
            <>
              <SeverityCounts summary={report.data.summary} label={title} />
              {errors.length > 0 && (
                <div>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {MSG.firstErrors}
                  </Typography>
                  <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
                    {errors.slice(0, FIRST_ERRORS).map((f) => (
                      <li key={`${f.id}:${f.line ?? 0}`}>
                        <Typography variant="body2">
                          {f.message}{' '}
                          <Typography
                            component="span"
                            variant="body2"
                            color="text.secondary"
                            sx={{ fontFamily: 'monospace' }}
                          >
                            {locationOf(f)}
                          </Typography>
                        </Typography>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {errors.length > 0 && settings.data?.gate && (
                <Alert severity="warning" role="status">
                  {MSG.gateOn}
                </Alert>
              )}
            </>
          ) : report.error ? (
            <LoadError title={MSG.commitFailed} error={report.error} onRetry={() => void report.refetch()} />
          ) : (
            <div>
              <Typography id={`${titleId}-checking`} variant="body2" sx={{ mb: 0.5 }}>
                {MSG.checkingCommit}
              </Typography>
              <LinearProgress aria-labelledby={`${titleId}-checking`} />
            </div>
          )}
          <div>
            <Button size="small" component={RouterLink} to={paths.portalReadiness(domain, portal, branch, language)}>
              {MSG.screenLink}
            </Button>
          </div>
        </Stack>
      </CardContent>
    </Card>
  );
}

/** A commit's counts in a line ('2 errors, 1 warning'; 'No findings'), for a table cell. */
export function CommitReadinessSummary({
  domain,
  portal,
  commitId,
}: {
  domain: string;
  portal: string;
  commitId: string;
}) {
  const report = useCommitReadiness(domain, portal, commitId);
  if (report.isPending)
    return (
      <Typography variant="body2" color="text.secondary">
        {MSG.checkingCommit}
      </Typography>
    );
  if (!report.data)
    return (
      <Typography variant="body2" color="text.secondary">
        —
      </Typography>
    );
  const { errors, warnings, infos } = report.data.summary;
  const text = countsText({ error: errors, warning: warnings, info: infos }) || MSG.noFindingsShort;
  return (
    <Typography variant="body2" color={errors ? 'error' : undefined} sx={{ fontWeight: errors ? 600 : undefined }}>
      {text}
    </Typography>
  );
}
