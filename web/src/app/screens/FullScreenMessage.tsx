import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface Props {
  title: string;
  children?: ReactNode;
  illustration?: ReactNode;
  actions?: ReactNode;
  /** 'screen' fills the window; 'area' fills the shell's content area. */
  fill?: 'screen' | 'area';
}

/** A centred full-screen message with a heading, text and actions. */
export function FullScreenMessage({ title, children, illustration, actions, fill = 'screen' }: Props) {
  return (
    <Box
      component={fill === 'screen' ? 'main' : 'section'}
      sx={{
        minHeight: fill === 'screen' ? '100vh' : '100%',
        display: 'grid',
        placeItems: 'center',
        p: 3,
        bgcolor: 'background.default',
        color: 'text.primary',
      }}
    >
      <Stack spacing={2} sx={{ maxWidth: 560, textAlign: 'center', alignItems: 'center' }}>
        {illustration}
        <Typography variant="h4" component="h1">
          {title}
        </Typography>
        {children}
        {actions && (
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'center', pt: 1 }}>
            {actions}
          </Stack>
        )}
      </Stack>
    </Box>
  );
}
