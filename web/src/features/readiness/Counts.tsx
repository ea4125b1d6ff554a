import ErrorIcon from '@mui/icons-material/ErrorOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import WarningIcon from '@mui/icons-material/WarningAmber';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReadinessSummary, Severity } from '../../api/readiness';
import { SEVERITIES, SEVERITY_LABEL, SEVERITY_LABELS } from './model';

const COUNT: Record<Severity, 'errors' | 'warnings' | 'infos'> = {
  error: 'errors',
  warning: 'warnings',
  info: 'infos',
};
const ICON = { error: ErrorIcon, warning: WarningIcon, info: InfoIcon } as const;

/** Errors, warnings and infos of a summary, compact: a list of "2 Errors". */
export function SeverityCounts({ summary, label }: { summary: ReadinessSummary; label: string }) {
  return (
    <Stack
      component="ul"
      aria-label={label}
      direction="row"
      spacing={3}
      useFlexGap
      sx={{ m: 0, p: 0, listStyle: 'none', flexWrap: 'wrap' }}
    >
      {SEVERITIES.map((s) => {
        const Icon = ICON[s];
        const n = summary[COUNT[s]] ?? 0;
        return (
          <Stack component="li" key={s} direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
            <Icon color={s} aria-hidden />
            <Typography variant="h6" component="span">
              {String(n)}
            </Typography>
            <Typography component="span" color="text.secondary">
              {n === 1 ? SEVERITY_LABEL[s] : SEVERITY_LABELS[s]}
            </Typography>
          </Stack>
        );
      })}
    </Stack>
  );
}
