import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useSelectionStore } from '../../core/selectionStore';
import { usePermission } from '../../core/usePermission';
import { EditingAreas } from './dashboard/EditingAreas';
import { Microsites } from './dashboard/Microsites';
import { OthersWork } from './dashboard/OthersWork';
import { RecentCommits } from './dashboard/RecentCommits';
import { formatDateTime } from '../../lib/format';
import { useLocalChanges, useLocalCommits } from './queries';
import { languageLabel } from '../../lib/languages';
import { lookupLabel, useLookup } from '../../api/lookup';
import { ENGINE_LABELS, SUPPORT_LEVEL_LABELS } from './format';
import { PageFrame } from '../../ui/PageFrame';
import { DEFAULT_LANGUAGE } from '../../core/paths';
import { StatCard, StatRow } from '../../ui/StatCard';
import { PreviewsCard } from '../preview';
import { ReadinessCard } from '../readiness';
import { UpstreamCard } from '../upstream';

const cap = (s: string | null | undefined) => (s ? s.charAt(0).toUpperCase() + s.slice(1).toLowerCase() : '—');

/**
 * Portal Dashboard: the open portal at a glance — counts and facts, the editing areas that
 * exist, the portal's previews (Live preview, Locked preview and the caller's latest), the branch's recent commits (Revert To), who else has uncommitted work here, and the
 * linked microsites (not for microsites themselves).
 */
export default function PortalDashboard() {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const info = useSelectionStore((s) => s.portalInfo);
  const branch = useSelectionStore((s) => s.branch);
  const language = useSelectionStore((s) => s.language);
  const canRead = usePermission('portal:r');
  const types = useLookup('PortalType');
  const scopes = useLookup('ScopeType');
  const canWrite = usePermission('portal:w');
  const canLink = usePermission('microsite:l');
  const changes = useLocalChanges(domain?.id, portal?.id, !!portal && canRead);
  const commits = useLocalCommits(domain?.id, portal?.id, !!portal && canRead);

  if (!domain || !portal || !info) return null;
  const changeCount = changes.data ? Object.keys(changes.data.changes ?? {}).length : '—';
  const commitCount = commits.data ? commits.data.length : '—';
  const rows: Array<[string, string]> = [
    ['Type', lookupLabel(types, info.type)],
    ['Scope', lookupLabel(scopes, info.scope)],
    ['Status', cap(info.status)],
    ['Category', info.category || '—'],
    ['Branch', branch ?? '—'],
    ['Language', language ? languageLabel(language) : '—'],
    ['Engine type', ENGINE_LABELS[info.engineType] ?? info.engineType],
    ['Support level', SUPPORT_LEVEL_LABELS[info.supportLevel] ?? cap(info.supportLevel)],
    ['Last modified', info.lastModified ? formatDateTime(info.lastModified) : '—'],
  ];
  return (
    <PageFrame
      overline="Portal Dashboard"
      title={portal.name}
      badge={info.supportLevel === 'LIMITED' && <Chip color="warning" label="Limited Portal" />}
    >
      <StatRow>
        <StatCard label="Local changes" value={changeCount} />
        <StatCard label="Local commits" value={commitCount} />
      </StatRow>
      <EditingAreas />
      {branch && <ReadinessCard d={domain.id} p={portal.id} branch={branch} language={language ?? DEFAULT_LANGUAGE} />}
      <PreviewsCard d={domain.id} p={portal.id} />
      <UpstreamCard d={domain.id} p={portal.id} />
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
    </PageFrame>
  );
}
