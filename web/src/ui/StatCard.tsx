import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** One figure of a dashboard: its name and its value (read out as "<label> <value>"). */
export function StatCard({ label, value }: { label: string; value: number | string }) {
  return (
    <Card variant="outlined" sx={{ minWidth: 170 }}>
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

/** A row of StatCards that wraps on narrow screens. */
export function StatRow({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {children}
    </Stack>
  );
}
