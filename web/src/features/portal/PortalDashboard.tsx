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

/** Portal Dashboard: the open portal at a glance. */
export default function PortalDashboard() {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const info = useSelectionStore((s) => s.portalInfo);
  const branch = useSelectionStore((s) => s.branch);
  const language = useSelectionStore((s) => s.language);
  const canRead = usePermission('portal:r');
  const changes = useLocalChanges(domain?.id, portal?.id, !!portal && canRead);
  const commits = useLocalCommits(domain?.id, portal?.id, !!portal && canRead);

  if (!portal || !info) return null;
  const changeCount = changes.data ? Object.keys(changes.data.changes ?? {}).length : '—';
  const commitCount = commits.data ? commits.data.length : '—';
  const rows: Array<[string, string]> = [
    ['Type', info.type === 'PASSENGER' ? 'Passenger' : info.type === 'CREW' ? 'Crew' : '—'],
    ['Scope', cap(info.scope)],
    ['Status', cap(info.status)],
    ['Category', info.category || '—'],
    ['Branch', branch ?? '—'],
    ['Language', language ?? '—'],
    ['Engine type', info.engineType],
    ['Support level', info.supportLevel],
    ['Last modified', info.lastModified ? formatTime(info.lastModified) : '—'],
  ];
  return (
    <Stack spacing={3} sx={{ maxWidth: 900 }}>
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
    </Stack>
  );
}
