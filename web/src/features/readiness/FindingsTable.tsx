/** One table of findings (a group of the screen, an author's findings): severity, finding, where, Open, Ignore. */
import ErrorIcon from '@mui/icons-material/ErrorOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import WarningIcon from '@mui/icons-material/WarningAmber';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { Finding, Severity } from '../../api/readiness';
import { languageLabel } from '../../lib/languages';
import { DataTable, type Column } from '../../ui/DataTable';
import { READINESS_MESSAGES as MSG } from './messages';
import { findingLink, locationOf, ruleLabel, SEVERITY_LABEL, type LinkContext } from './model';

const ICONS: Record<Severity, typeof ErrorIcon> = { error: ErrorIcon, warning: WarningIcon, info: InfoIcon };
const COLORS: Record<Severity, 'error' | 'warning' | 'info'> = { error: 'error', warning: 'warning', info: 'info' };
const RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** The severity as an icon and its word (the word carries it: the colour is not the only sign). */
export function SeverityLabel({ severity }: { severity: Severity }) {
  const Icon = ICONS[severity] ?? InfoIcon;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <Icon fontSize="small" color={COLORS[severity] ?? 'info'} aria-hidden />
      <span>{SEVERITY_LABEL[severity] ?? severity}</span>
    </Stack>
  );
}

export function FindingsTable({
  label,
  findings,
  ctx,
  showRule,
  onIgnore,
  paged = true,
  open = true,
}: {
  label: string;
  findings: readonly Finding[];
  ctx: LinkContext;
  /** Name the rule of each finding (grouped by file). */
  showRule?: boolean;
  /** Offer Ignore (asset:w, the caller's own findings). */
  onIgnore?: (finding: Finding) => void;
  paged?: boolean;
  /** Offer Open (not for other authors' findings: their files differ from the caller's). */
  open?: boolean;
}) {
  const columns: Column<Finding>[] = [
    {
      id: 'severity',
      header: MSG.severity,
      width: 110,
      cell: (f) => <SeverityLabel severity={f.severity} />,
      sortValue: (f) => RANK[f.severity] ?? 3,
    },
    {
      id: 'message',
      header: MSG.message,
      rowHeader: true,
      cell: (f) => (
        <>
          {f.message}
          {showRule && (
            <Typography variant="caption" component="div" color="text.secondary">
              {ruleLabel(f.rule)}
            </Typography>
          )}
          {f.fix && (
            <Typography variant="caption" component="div" color="text.secondary">
              {MSG.fix} {f.fix}
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'where',
      header: MSG.where,
      cell: (f) => (
        <Typography variant="body2" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', minWidth: 160 }}>
          {locationOf(f)}
        </Typography>
      ),
      sortValue: (f) => `${f.path}\u0000${String(f.line ?? 0).padStart(8, '0')}`,
    },
    {
      id: 'language',
      header: MSG.language,
      cell: (f) => (f.language ? languageLabel(f.language) : '—'),
      sortValue: (f) => f.language ?? '',
    },
  ];
  if (open || onIgnore)
    columns.push({
      id: 'actions',
      header: MSG.actions,
      cell: (f) => {
        const to = open ? findingLink(f, ctx) : null;
        return (
          <Stack direction="row" spacing={0.5}>
            {to && (
              <Button size="small" component={RouterLink} to={to}>
                {MSG.open}
              </Button>
            )}
            {onIgnore && (
              <Button size="small" onClick={() => onIgnore(f)}>
                {MSG.ignore}
              </Button>
            )}
          </Stack>
        );
      },
    });
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={findings}
      rowKey={(f) => `${f.id}:${f.line ?? 0}:${f.message}`}
      size="small"
      paged={paged}
      emptyText={MSG.noMatch}
    />
  );
}
