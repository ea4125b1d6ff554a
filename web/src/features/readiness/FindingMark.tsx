/**
 * The marks the editors show readiness findings with (issue 29 "live in the editors"): an icon
 * beside a list entry (a translation key, a file, a page) whose tooltip and accessible name say
 * what is wrong, the messages under a form field, and a compact list of a file's findings.
 * Marks add no tab stop: the icon is an image named by its message (role="img", aria-label).
 */
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Finding, Severity } from '../../api/readiness';
import { plural } from '../../lib/format';
import { bySeverity, severityCounts, worstSeverity } from './fieldFindings';

const ICON: Record<Severity, typeof ErrorOutlineIcon> = {
  error: ErrorOutlineIcon,
  warning: WarningAmberIcon,
  info: InfoOutlinedIcon,
};
const COLOR: Record<Severity, 'error' | 'warning' | 'info'> = { error: 'error', warning: 'warning', info: 'info' };

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** '1 readiness error', '2 readiness errors'. */
export const readinessErrorsLabel = (count: number) => plural(count, 'readiness error');

/** 'Readiness: 1 error, 2 warnings' ('<subject>: …'). */
export function readinessSummaryLabel(findings: readonly Finding[], subject = 'Readiness'): string {
  const c = severityCounts(findings);
  const parts = [
    c.error ? plural(c.error, 'error') : '',
    c.warning ? plural(c.warning, 'warning') : '',
    c.info ? plural(c.info, 'note') : '',
  ].filter(Boolean);
  return `${subject}: ${parts.join(', ')}`;
}

function MarkIcon({ severity, label, testId }: { severity: Severity; label: string; testId: string }) {
  const Icon = ICON[severity];
  return (
    <Tooltip title={<span style={{ whiteSpace: 'pre-line' }}>{label}</span>}>
      <Icon
        role="img"
        aria-label={label}
        aria-hidden={false}
        fontSize="small"
        color={COLOR[severity]}
        data-testid={testId}
        data-severity={severity}
        sx={{ flexShrink: 0, verticalAlign: 'middle' }}
      />
    </Tooltip>
  );
}

/**
 * An icon for a list entry with findings: the worst severity's, named by the messages (one a
 * line in the tooltip). Nothing when there are none.
 */
export function FindingMark({ findings }: { findings: readonly Finding[] }) {
  const severity = worstSeverity(findings);
  if (!severity) return null;
  const label = bySeverity(findings)
    .map((f) => f.message)
    .join('\n');
  return <MarkIcon severity={severity} label={label} testId="readiness-mark" />;
}

/** 'N readiness error(s)' on a file or page with errors (File Explorer, Page Manager). */
export function ErrorCountMark({ count, subtle }: { count: number; subtle?: boolean }) {
  if (count <= 0) return null;
  const label = readinessErrorsLabel(count);
  if (subtle)
    return (
      <Tooltip title={`${label} inside`}>
        <Box
          component="span"
          role="img"
          aria-label={`${label} inside`}
          data-testid="readiness-folder-mark"
          sx={{
            display: 'inline-block',
            width: 8,
            height: 8,
            borderRadius: '50%',
            bgcolor: 'error.main',
            flexShrink: 0,
            verticalAlign: 'middle',
          }}
        />
      </Tooltip>
    );
  return <MarkIcon severity="error" label={label} testId="readiness-error-mark" />;
}

/** Where a finding is: 'Line 12', the key, or the pointer. */
function placeOf(f: Finding): string {
  if (f.line) return `Line ${f.line}`;
  if (f.key) return f.key;
  return f.pointer ?? '';
}

/**
 * A field's findings under it, each with its severity's icon and colour. `id` lets the field
 * name them in aria-describedby.
 */
export function FieldFindings({ findings, id }: { findings: readonly Finding[]; id?: string }) {
  if (findings.length === 0) return null;
  return (
    <Box component="ul" id={id} data-testid="field-findings" sx={{ listStyle: 'none', m: 0, mt: 0.5, p: 0 }}>
      {bySeverity(findings).map((f, i) => {
        const Icon = ICON[f.severity] ?? InfoOutlinedIcon;
        return (
          <Typography
            key={`${f.id}-${i}`}
            component="li"
            variant="caption"
            data-severity={f.severity}
            sx={{
              display: 'flex',
              alignItems: 'flex-start',
              gap: 0.5,
              color: f.severity === 'info' ? 'text.secondary' : `${COLOR[f.severity]}.dark`,
            }}
          >
            <Icon aria-hidden sx={{ fontSize: 16, mt: '1px', color: `${COLOR[f.severity] ?? 'info'}.main` }} />
            <span>
              <Box component="span" sx={visuallyHidden}>{`Readiness ${f.severity}: `}</Box>
              {f.message}
            </span>
          </Typography>
        );
      })}
    </Box>
  );
}

/**
 * A compact list of findings in one Alert (the worst severity's): the title counts them, each
 * line says where (a line is a link to it when `onLine` is given) and what.
 */
export function FindingsAlert({
  findings,
  subject,
  onLine,
  placed = true,
}: {
  findings: readonly Finding[];
  /** The title's subject: '<subject>: 1 error, 2 warnings' (default 'Readiness'). */
  subject?: string;
  /** Goes to a finding's line (the source editors). */
  onLine?: (line: number) => void;
  /** Show where each finding is (line, key, pointer). */
  placed?: boolean;
}) {
  const severity = worstSeverity(findings);
  if (!severity) return null;
  return (
    <Alert
      severity={COLOR[severity]}
      role="status"
      data-testid="readiness-findings"
      sx={{ '& ul': { m: 0, pl: findings.length > 1 ? 2 : 0, listStyle: findings.length > 1 ? undefined : 'none' } }}
    >
      <AlertTitle>{readinessSummaryLabel(findings, subject)}</AlertTitle>
      <ul>
        {bySeverity(findings).map((f, i) => {
          const place = placed ? placeOf(f) : '';
          return (
            <li key={`${f.id}-${i}`} data-severity={f.severity}>
              {place &&
                (onLine && f.line ? (
                  <Link component="button" type="button" variant="body2" onClick={() => onLine(f.line!)}>
                    {place}
                  </Link>
                ) : (
                  <Box component="span" sx={{ fontFamily: f.line ? undefined : 'monospace' }}>
                    {place}
                  </Box>
                ))}
              {place ? ': ' : ''}
              {f.severity !== severity ? `(${f.severity}) ` : ''}
              {f.message}
            </li>
          );
        })}
      </ul>
    </Alert>
  );
}
