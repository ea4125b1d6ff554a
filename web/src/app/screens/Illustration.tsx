import Box from '@mui/material/Box';

/**
 * The "something is wrong with this browser window" graphic used by the
 * browser-not-supported page and the global error screen (spec 1 §2.5).
 */
export function BrokenWindowIllustration({ size = 180 }: { size?: number }) {
  return (
    <Box
      component="svg"
      viewBox="0 0 200 150"
      width={size}
      height={(size * 3) / 4}
      aria-hidden
      sx={{ display: 'block', mx: 'auto' }}
    >
      <rect x="10" y="10" width="180" height="130" rx="10" fill="#e8eef5" stroke="#12355b" strokeWidth="4" />
      <path d="M10 38h180" stroke="#12355b" strokeWidth="4" />
      <circle cx="28" cy="24" r="5" fill="#e25c4b" />
      <circle cx="44" cy="24" r="5" fill="#f5a623" />
      <circle cx="60" cy="24" r="5" fill="#4caf7d" />
      <path d="M100 48l-12 26 16 10-14 30" fill="none" stroke="#12355b" strokeWidth="4" strokeLinejoin="round" />
      <circle cx="70" cy="92" r="6" fill="#12355b" />
      <circle cx="130" cy="92" r="6" fill="#12355b" />
    </Box>
  );
}
