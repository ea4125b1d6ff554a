import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { toApiError } from '../../api/errors';
import { useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';
import { domainApi, domainKeys } from '../../api/domain';
import { LoadError, Loading } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { StatCard, StatRow } from '../../ui/StatCard';

/** The domain's logo, fetched with the session's token and shown from an object URL; nothing on 404. */
function DomainLogo({ domainId, name }: { domainId: string; name: string }) {
  const logo = useQuery({
    queryKey: domainKeys.logo(domainId),
    queryFn: async () => {
      try {
        return await domainApi.logo(domainId);
      } catch (error) {
        if (toApiError(error).httpStatus === 404) return null;
        throw error;
      }
    },
  });
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!(logo.data instanceof Blob)) {
      setSrc(null);
      return;
    }
    const objectUrl = URL.createObjectURL(logo.data);
    setSrc(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [logo.data]);
  if (!src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt={`${name} logo`}
      sx={{ maxHeight: 72, maxWidth: 220, objectFit: 'contain', display: 'block' }}
    />
  );
}

/** Domain Dashboard (spec 1 §2.1 domain/{domain}/dashboard): name, logo, members, groups, the user's roles. */
export default function DomainDashboard() {
  const { domain: domainId = '' } = useParams();
  const domain = useSelectionStore((s) => s.domain);
  const roles = useSelectionStore((s) => s.roles);
  const isAdmin = useSessionStore((s) => !!s.user?.admin);
  const meta = useQuery({
    queryKey: domainKeys.accountMeta(domainId),
    queryFn: () => domainApi.accountMeta(domainId),
  });
  const name = meta.data?.name ?? domain?.name ?? '';

  return (
    <PageFrame overline="Domain" title={name} leading={<DomainLogo domainId={domainId} name={name} />}>
      {meta.isPending && <Loading label="Loading the domain" />}
      {meta.isError && (
        <LoadError title="Could not load the domain" error={meta.error} onRetry={() => void meta.refetch()} />
      )}
      {meta.isSuccess && (
        <StatRow>
          <StatCard label="Members" value={meta.data.memberCount} />
          <StatCard label="Groups" value={meta.data.groupCount} />
        </StatRow>
      )}

      <Card variant="outlined">
        <CardContent>
          <Typography variant="overline" component="h2">
            Your roles
          </Typography>
          {isAdmin ? (
            <Typography>Administrator: you hold every permission in this domain.</Typography>
          ) : roles.length === 0 ? (
            <Typography color="text.secondary">You have no role in this domain.</Typography>
          ) : (
            <Stack
              direction="row"
              spacing={1}
              useFlexGap
              sx={{ flexWrap: 'wrap', mt: 1 }}
              role="list"
              aria-label="Your roles"
            >
              {roles.map((role) => (
                <Chip key={role} label={role} role="listitem" />
              ))}
            </Stack>
          )}
        </CardContent>
      </Card>
    </PageFrame>
  );
}
