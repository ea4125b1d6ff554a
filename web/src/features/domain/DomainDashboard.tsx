import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { toApiError } from '../../api/errors';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { useSessionStore } from '../../app/session/sessionStore';
import { domainApi, domainKeys } from '../../api/domain';

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

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Card variant="outlined" sx={{ minWidth: 160 }}>
      <CardContent>
        <Typography variant="overline" component="h2">
          {label}
        </Typography>
        <Typography variant="h4" component="p" aria-label={label}>
          {value}
        </Typography>
      </CardContent>
    </Card>
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
    <Stack spacing={3} sx={{ maxWidth: 900 }}>
      <Stack direction="row" spacing={3} sx={{ alignItems: 'center' }}>
        <DomainLogo domainId={domainId} name={name} />
        <Box>
          <Typography variant="overline" color="text.secondary">
            Domain
          </Typography>
          <Typography variant="h4" component="h1">
            {name}
          </Typography>
        </Box>
      </Stack>

      {meta.isPending && (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }} role="progressbar" aria-label="Loading">
          <CircularProgress size={18} aria-hidden />
          <Typography>Loading the domain</Typography>
        </Stack>
      )}
      {meta.isError && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void meta.refetch()}>
              Retry
            </Button>
          }
        >
          {toApiError(meta.error).errorMessage}
        </Alert>
      )}
      {meta.isSuccess && (
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Stat label="Members" value={meta.data.memberCount} />
          <Stat label="Groups" value={meta.data.groupCount} />
        </Stack>
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
    </Stack>
  );
}
