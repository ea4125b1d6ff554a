import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { sanitizeHtml } from '../../lib/sanitizeHtml';
import { CONFLICT_MESSAGES as MSG } from './messages';

/**
 * A page's HTML rendered for comparison: sanitised (lib/sanitizeHtml: DOMPurify plus the
 * allow-list pass, so no script, style, frame or handler survives) and shown in an iframe with
 * `sandbox=""` (no scripts, no same-origin, no forms, no popups) through `srcDoc`.
 */
export function SandboxedPage({ title, html }: { title: string; html: string | null }) {
  const doc = useMemo(() => (html === null ? null : sanitizeHtml(html)), [html]);
  return (
    <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle2" component="h4">
        {title}
      </Typography>
      {doc === null ? (
        <Typography color="text.secondary">{MSG.absent}</Typography>
      ) : (
        <Box
          component="iframe"
          title={title}
          sandbox=""
          referrerPolicy="no-referrer"
          srcDoc={doc}
          sx={{ width: '100%', height: 360, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
        />
      )}
    </Stack>
  );
}

/** Pages side by side (theirs | mine, before | after). */
export function SideBySidePages({ pages }: { pages: { title: string; html: string | null }[] }) {
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      {pages.map((p) => (
        <SandboxedPage key={p.title} title={p.title} html={p.html} />
      ))}
    </Stack>
  );
}
