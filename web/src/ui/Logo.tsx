import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The Portalwright mark and word mark. */
export function Logo({ size = 32, withName = true }: { size?: number; withName?: boolean }) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box component="svg" viewBox="0 0 32 32" width={size} height={size} aria-hidden sx={{ flexShrink: 0 }}>
        <rect width="32" height="32" rx="6" fill="#12355b" />
        <path d="M9 24V8h8a5 5 0 0 1 0 10h-4v6z" fill="#fff" />
        <circle cx="23" cy="23" r="3" fill="#f5a623" />
      </Box>
      {withName && (
        <Typography component="span" variant="h6" sx={{ fontWeight: 700, letterSpacing: 0.3, color: 'inherit' }}>
          Portalwright
        </Typography>
      )}
    </Box>
  );
}
