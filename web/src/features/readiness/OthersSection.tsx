/**
 * Other authors' findings in the files they changed and have not committed: what will arrive
 * with their commits. Kept live by READINESS_CHANGED (live.ts).
 */
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LoadError } from '../../ui/Loading';
import { FindingsTable } from './FindingsTable';
import { READINESS_MESSAGES as MSG } from './messages';
import { countBySeverity, countsText, personName, type LinkContext } from './model';
import { useOthersReadiness } from './queries';

export function OthersSection({ domain, portal, ctx }: { domain: string; portal: string; ctx: LinkContext }) {
  const others = useOthersReadiness(domain, portal);
  const authors = (others.data ?? []).filter((o) => o.findings.length > 0 && (!ctx.branch || o.branch === ctx.branch));
  return (
    <Stack spacing={1} component="section" aria-labelledby="readiness-others">
      <Typography id="readiness-others" variant="h6" component="h2">
        {MSG.others}
      </Typography>
      {others.error ? (
        <LoadError title={MSG.othersFailed} error={others.error} onRetry={() => void others.refetch()} />
      ) : others.data && authors.length === 0 ? (
        <Typography color="text.secondary">{MSG.othersNone}</Typography>
      ) : (
        authors.map((o) => {
          const name = personName(o.user);
          return (
            <Stack key={o.user.id} spacing={0.5}>
              <Typography variant="subtitle1" component="h3">
                {name}{' '}
                <Typography component="span" variant="body2" color="text.secondary">
                  {countsText(countBySeverity(o.findings))}
                </Typography>
              </Typography>
              <FindingsTable label={`${name}: ${MSG.others}`} findings={o.findings} ctx={ctx} showRule open={false} />
            </Stack>
          );
        })
      )}
    </Stack>
  );
}
