import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { CONFLICT_MESSAGES as MSG } from './messages';

/** Files both sides changed that merged without conflicts. */
export function MergedFiles({ files }: { files: string[] }) {
  const titleId = useId();
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2">
          {MSG.merged}
        </Typography>
        <Typography color="text.secondary" gutterBottom>
          {MSG.mergedIntro}
        </Typography>
        <Box component="ul" aria-label={MSG.merged} sx={{ m: 0, pl: 3 }}>
          {[...files]
            .sort((a, b) => a.localeCompare(b))
            .map((path) => (
              <Box component="li" key={path} sx={{ fontFamily: 'monospace', fontSize: 13 }}>
                {path}
              </Box>
            ))}
        </Box>
      </CardContent>
    </Card>
  );
}
