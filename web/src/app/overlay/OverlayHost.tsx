import Backdrop from '@mui/material/Backdrop';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { NotFoundScreen, ServiceUnavailableScreen } from '../screens/StatusScreens';
import { OVERLAY_FADE_MS, useOverlayStore } from '../../core/overlayStore';

/** Renders the overlay service's current state above everything else. */
export function OverlayHost() {
  const { visible, mode, message, percent, content } = useOverlayStore();
  return (
    <Backdrop
      open={visible}
      transitionDuration={OVERLAY_FADE_MS}
      sx={{
        zIndex: (t) => t.zIndex.modal + 1,
        color: '#fff',
        bgcolor: mode === 'notFound' || mode === 'serviceUnavailable' ? 'background.default' : 'rgba(10, 25, 41, 0.72)',
      }}
    >
      {visible && (
        <Box data-testid="overlay" aria-live="polite" sx={{ textAlign: 'center', width: '100%' }}>
          {mode === 'spinner' && (
            <Box role="progressbar" aria-label={message} aria-busy="true">
              <CircularProgress color="inherit" aria-hidden />
              <Typography variant="h6" component="p" sx={{ mt: 2 }}>
                {message}
              </Typography>
            </Box>
          )}
          {mode === 'progress' && (
            <Box sx={{ maxWidth: 420, mx: 'auto', px: 2 }}>
              <Typography variant="h6" component="p" sx={{ mb: 2 }}>
                {message}
              </Typography>
              <LinearProgress variant="determinate" value={percent} aria-label={message} />
              <Typography variant="body2" sx={{ mt: 1 }}>
                {Math.round(percent)}%
              </Typography>
            </Box>
          )}
          {mode === 'custom' && content}
          {mode === 'notFound' && <NotFoundScreen />}
          {mode === 'serviceUnavailable' && <ServiceUnavailableScreen />}
        </Box>
      )}
    </Backdrop>
  );
}
