import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Hunk, HunkLine } from '../../api/conflicts';
import { CONFLICT_MESSAGES as MSG } from './messages';

// Dark text on light tints: well above 4.5:1 contrast.
const LINE_STYLE: Record<HunkLine['op'], { bgcolor: string; color: string; sign: string; label?: string }> = {
  '+': { bgcolor: '#e6f4ea', color: '#0b4619', sign: '+', label: 'added' },
  '-': { bgcolor: '#fdecea', color: '#7a1010', sign: '-', label: 'removed' },
  ' ': { bgcolor: 'transparent', color: 'text.primary', sign: ' ' },
};

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

const hunkHeader = (h: Hunk) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;

/** A text file's changes as hunks of lines: '+' added (green), '-' removed (red), monospace. */
export function LineDiff({ path, hunks }: { path: string; hunks: Hunk[] }) {
  if (hunks.length === 0) return <Typography color="text.secondary">{MSG.noLineChanges}</Typography>;
  return (
    <Box
      role="region"
      aria-label={MSG.lineChanges(path)}
      sx={{
        fontFamily: 'monospace',
        fontSize: 13,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflowX: 'auto',
      }}
    >
      {hunks.map((h, i) => (
        <Box key={`${h.oldStart}:${h.newStart}:${i}`} data-testid="hunk">
          <Box sx={{ px: 1, py: 0.25, bgcolor: '#eef2f8', color: '#2b3a55' }}>{hunkHeader(h)}</Box>
          {h.lines.map((line, j) => {
            const style = LINE_STYLE[line.op];
            return (
              <Box
                key={j}
                data-op={line.op}
                sx={{ display: 'flex', bgcolor: style.bgcolor, color: style.color, whiteSpace: 'pre' }}
              >
                <Box component="span" aria-hidden sx={{ width: '2ch', flex: 'none', pl: 0.5 }}>
                  {style.sign}
                </Box>
                {style.label && <Box component="span" sx={visuallyHidden}>{`${style.label}: `}</Box>}
                <Box component="span" sx={{ pr: 1 }}>
                  {line.text}
                </Box>
              </Box>
            );
          })}
        </Box>
      ))}
    </Box>
  );
}
