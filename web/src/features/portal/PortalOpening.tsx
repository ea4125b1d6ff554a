import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** Shown while the selection chain completes a portal URL (branch, language, screen). */
export default function PortalOpening() {
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }} role="progressbar" aria-label="Opening Portal">
      <CircularProgress size={18} aria-hidden />
      <Typography>Opening Portal</Typography>
    </Stack>
  );
}
