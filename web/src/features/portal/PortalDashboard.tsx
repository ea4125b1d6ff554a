import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { usePermission } from '../../app/permissions/usePermission';
import { EditingAreas } from './dashboard/EditingAreas';
import { Microsites } from './dashboard/Microsites';
import { OthersWork } from './dashboard/OthersWork';
import { RecentCommits } from './dashboard/RecentCommits';
import { formatTime } from './format';
import { useLocalChanges, useLocalCommits } from './queries';

function Stat({ label, value }: { label: string; value: number | string }) {
  return (
    <Card variant="outlined" sx={{ minWidth: 180 }}>
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

const cap = (s: string | null | undefined) => (s ? s.charAt(0).toUpperCase() + s.slice(1).toLowerCase() : '—');

const ENGINE_LABELS: Record<string, string> = {
  UNIVERSAL: 'Universal',
  JS_ENGINE: 'JS engine',
  PORTAL_ENGINE: 'Portal engine',
  UNKNOWN: 'Unknown',
};

/**
 * Portal Dashboard: the open portal at a glance — counts and facts, the editing areas that
 * exist, the branch's recent commits (Revert To), who else has uncommitted work here, and the
 * linked microsites (not for microsites themselves).
 */
export default function PortalDashboard() {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const info = useSelectionStore((s) => s.portalInfo);
  const branch = useSelectionStore((s) => s.branch);
  const language = useSelectionStore((s) => s.language);
  const canRead = usePermission('portal:r');
  const canWrite = usePermission('portal:w');
  const canLink = usePermission('microsite:l');
  const changes = useLocalChanges(domain?.id, portal?.id, !!portal && canRead);
  const commits = useLocalCommits(domain?.id, portal?.id, !!portal && canRead);

  if (!domain || !portal || !info) return null;
  const changeCount = changes.data ? Object.keys(changes.data.changes ?? {}).length : '—';
  const commitCount = commits.data ? commits.data.length : '—';
  const rows: Array<[string, string]> = [
    ['Type', info.type === 'PASSENGER' ? 'Passenger' : info.type === 'CREW' ? 'Crew' : '—'],
    ['Scope', cap(info.scope)],
    ['Status', cap(info.status)],
    ['Category', info.category || '—'],
    ['Branch', branch ?? '—'],
    ['Language', language ?? '—'],
    ['Engine type', ENGINE_LABELS[info.engineType] ?? info.engineType],
    ['Support level', cap(info.supportLevel)],
    ['Last modified', info.lastModified ? formatTime(info.lastModified) : '—'],
  ];
  return (
    <Stack spacing={3} sx={{ maxWidth: 1100 }}>
      <div>
        <Typography variant="overline" color="text.secondary">
          Portal Dashboard
        </Typography>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <Typography variant="h4" component="h1">
            {portal.name}
          </Typography>
          {info.supportLevel === 'LIMITED' && <Chip color="warning" label="Limited Portal" />}
        </Stack>
      </div>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Stat label="Local changes" value={changeCount} />
        <Stat label="Local commits" value={commitCount} />
      </Stack>
      <EditingAreas />
      <Card variant="outlined">
        <Table size="small" aria-label="Portal details">
          <TableBody>
            {rows.map(([label, value]) => (
              <TableRow key={label}>
                <TableCell component="th" scope="row" sx={{ width: 200, fontWeight: 600 }}>
                  {label}
                </TableCell>
                <TableCell>{value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      {canRead && branch && (
        <RecentCommits
          d={domain.id}
          p={portal.id}
          branch={branch}
          canWrite={canWrite}
          uncommitted={typeof changeCount === 'number' ? changeCount : 0}
        />
      )}
      {canRead && (
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'stretch' }}>
          {branch && <OthersWork d={domain.id} p={portal.id} branch={branch} />}
          {info.scope !== 'MICROSITE' && <Microsites d={domain.id} p={portal.id} canLink={canLink} />}
        </Stack>
      )}
    </Stack>
  );
}
