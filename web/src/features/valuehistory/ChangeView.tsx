/** One change of a value: before → after, a line diff for long texts, images side by side. */
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { thumbnailUrl, useThumbnailToken, WIDE_THUMBNAIL } from '../../api/assets';
import type { Hunk } from '../../api/conflicts';
import type { Id } from '../../api/portal';
import type { ValueChange } from '../../api/valueHistory';
import { useSelectionStore } from '../../core/selectionStore';
import { display, imagePath } from './model';
import { VALUE_HISTORY_MESSAGES as MSG } from './messages';

const valueBox = {
  m: 0,
  p: 1,
  borderRadius: 1,
  bgcolor: 'action.hover',
  fontFamily: 'monospace',
  fontSize: '0.8125rem',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  maxHeight: 200,
  overflow: 'auto',
} as const;

// Dark text on light tints: well above 4.5:1 contrast (as the review's line diff).
const LINE = {
  '+': { bgcolor: '#e6f4ea', color: '#0b4619' },
  '-': { bgcolor: '#fdecea', color: '#7a1010' },
  ' ': { bgcolor: 'transparent', color: 'text.primary' },
} as const;

function Hunks({ hunks }: { hunks: Hunk[] }) {
  return (
    <Box
      component="pre"
      tabIndex={0}
      role="region"
      aria-label={MSG.changes}
      sx={{ ...valueBox, bgcolor: 'transparent', border: 1, borderColor: 'divider', maxHeight: 300 }}
    >
      {hunks.map((h, i) => (
        <Box key={i} component="span" sx={{ display: 'block' }}>
          <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
            {`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`}
          </Box>
          {h.lines.map((l, j) => (
            <Box key={j} component="span" sx={{ display: 'block', ...LINE[l.op] }}>
              {`${l.op} ${l.text}`}
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}

function ImageValue({ d, p, path, label }: { d: Id; p: Id; path: string; label: string }) {
  const branch = useSelectionStore((s) => s.branch ?? '');
  const token = useThumbnailToken(d, p);
  const clean = path.replace(/^\.?\//, '');
  return (
    <Stack spacing={0.5}>
      {token && (
        <Box
          component="img"
          src={thumbnailUrl(d, p, branch, clean, token, WIDE_THUMBNAIL)}
          alt={`${label}: ${clean}`}
          sx={{ maxWidth: 240, maxHeight: 160, objectFit: 'contain', border: 1, borderColor: 'divider' }}
        />
      )}
      <Typography variant="caption">{clean}</Typography>
    </Stack>
  );
}

function Side({ d, p, label, value }: { d: Id; p: Id; label: string; value: string | null }) {
  const image = imagePath(value);
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      {image ? (
        <ImageValue d={d} p={p} path={image} label={label} />
      ) : (
        // Scrollable when long: focusable, so the keyboard can scroll it.
        <Box component="pre" tabIndex={0} role="region" aria-label={label} sx={valueBox}>
          {display(value)}
        </Box>
      )}
    </Box>
  );
}

/** Before → after of one change (a line diff instead when the server made one). */
export function ChangeView({ d, p, change }: { d: Id; p: Id; change: ValueChange }) {
  if (change.diff && change.diff.length > 0) return <Hunks hunks={change.diff} />;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: 'stretch' }}>
      <Side d={d} p={p} label={MSG.before} value={change.old} />
      <Typography aria-hidden sx={{ alignSelf: 'center' }}>
        →
      </Typography>
      <Side d={d} p={p} label={MSG.after} value={change.new} />
    </Stack>
  );
}
