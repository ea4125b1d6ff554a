import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Logo } from '../../ui/Logo';

/** The frame of every sign-in view: logo, heading, form. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        p: 2,
        background: 'linear-gradient(160deg, #0b2545 0%, #13315c 55%, #1d4e89 100%)',
      }}
    >
      <Paper elevation={8} sx={{ width: 400, maxWidth: '100%', p: 4 }}>
        <Box sx={{ color: 'primary.main', mb: 2, textAlign: 'center' }}>
          <Logo size={40} />
        </Box>
        <Typography variant="h5" component="h1" sx={{ textAlign: 'center', mb: 3 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}

/** A link that switches sign-in views instead of navigating. */
export function ViewLink({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Typography
      component="a"
      href="#/"
      variant="body2"
      // Switching views must not blur the focused field first: the blur would mark it touched,
      // show its error and move this link before the click lands.
      onMouseDown={(event) => event.preventDefault()}
      onClick={(event) => {
        event.preventDefault();
        onClick();
      }}
      sx={{ color: 'primary.main', cursor: 'pointer', textDecoration: 'underline', textUnderlineOffset: 3 }}
    >
      {children}
    </Typography>
  );
}
