import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useQuery } from '@tanstack/react-query';
import { configApi } from '../../api/config';
import type { ProbeConfig, ProbeLink } from '../../api/types';
import { useSessionStore } from '../../core/sessionStore';
import { resolveVersions } from './version';

export const VERSION_DIALOG_WIDTH = 430;

/** null when the lookup failed (shown as N/A). */
const orNull = (lookup: () => Promise<string>) => () => lookup().catch(() => null);

export const RELEASE_DOCS_LABEL = 'Release documentation';

/**
 * The release documentation link of the probe configuration: `releaseDocumentation`, else a
 * documentation-menu entry whose title names the release notes or change log; null when the
 * configuration has none (then no link is shown).
 */
export function releaseDocumentation(config: ProbeConfig | null): ProbeLink | null {
  if (!config) return null;
  if (config.releaseDocumentation?.url) return config.releaseDocumentation;
  return (config.documentation ?? []).find((l) => l.url && /release|change ?log/i.test(l.title)) ?? null;
}

/**
 * The release version dialog (spec 1 §2.5, §7; spec 3 §2): front-end, back-end and combined
 * versions, and the release documentation link when the probe configuration has one.
 */
export function VersionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const release = releaseDocumentation(useSessionStore((s) => s.probeConfig));
  const frontend = useQuery({
    queryKey: ['version', 'frontend'],
    queryFn: orNull(configApi.frontendVersion),
    enabled: open,
    staleTime: 60_000,
  });
  const backend = useQuery({
    queryKey: ['version', 'backend'],
    queryFn: orNull(configApi.backendVersion),
    enabled: open,
    staleTime: 60_000,
  });
  const loading = frontend.isPending || backend.isPending;
  const info = loading ? null : resolveVersions(frontend.data ?? null, backend.data ?? null);

  const rows: Array<[string, string | undefined]> = [
    ['Front-end version', info?.frontend],
    ['Back-end version', info?.backend],
    ['Combined version', info?.combined],
  ];

  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="version-dialog-title"
      slotProps={{ paper: { sx: { width: VERSION_DIALOG_WIDTH, maxWidth: 'calc(100vw - 32px)' } } }}
    >
      <DialogTitle id="version-dialog-title">Version</DialogTitle>
      <DialogContent>
        {info?.error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {info.error}
          </Alert>
        )}
        <Table size="small" aria-label="Versions">
          <TableBody>
            {rows.map(([label, value]) => (
              <TableRow key={label}>
                <TableCell component="th" scope="row" sx={{ fontWeight: 600, pl: 0 }}>
                  {label}
                </TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>
                  {value ?? <CircularProgress size={14} aria-label={`Loading ${label}`} />}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {release && (
          <Link href={release.url} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-block', mt: 2 }}>
            {release.title || RELEASE_DOCS_LABEL}
          </Link>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
