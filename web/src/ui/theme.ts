import { createTheme } from '@mui/material/styles';

const PRIMARY = '#13315c';

/**
 * The keyboard focus ring (WCAG 2.4.7): a 2 px outline in the primary colour (13:1 on white).
 * Only for :focus-visible, so a mouse click draws none. Dark surfaces (the side navigation)
 * turn its colour white through `focusRingColor`.
 */
export const FOCUS_RING = { outline: `2px solid ${PRIMARY}`, outlineOffset: 2 } as const;
/** Sets the ring's colour for the controls under a dark surface (sx of the surface). */
export const focusRingColor = (color: string) => ({
  '& .MuiButtonBase-root.Mui-focusVisible': { outlineColor: color },
});

export const theme = createTheme({
  palette: {
    primary: { main: PRIMARY },
    secondary: { main: '#f5a623' },
    background: { default: '#f4f6fa' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    // Every button, icon button, list and menu entry, tab, toggle, checkbox… is a ButtonBase.
    // Rows of lists, menus, tabs and toggle groups draw it inside (a scrolling list or a
    // neighbour would hide an outer ring).
    MuiButtonBase: {
      styleOverrides: {
        root: {
          '&.Mui-focusVisible': FOCUS_RING,
          '&.MuiListItemButton-root.Mui-focusVisible, &.MuiMenuItem-root.Mui-focusVisible, &.MuiTab-root.Mui-focusVisible, &.MuiToggleButton-root.Mui-focusVisible':
            { outlineOffset: -2 },
        },
      },
    },
    MuiCssBaseline: {
      styleOverrides: {
        // Links, and the headings and regions the app moves the focus to (tabIndex -1).
        'a:focus-visible, h1[tabindex="-1"]:focus-visible': FOCUS_RING,
        '[tabindex="-1"]:focus:not(:focus-visible)': { outline: 'none' },
        // The main region holds the focus only while its screen loads, before its heading shows.
        'main[tabindex="-1"]:focus': { outline: 'none' },
        // Motion off for whoever asks for it (prefers-reduced-motion, WCAG 2.3.3): ripples,
        // collapses, fades and spinners end at once (an event that waits for a transition's end
        // still comes). The browser tests ask too: a turning spinner makes a software-rendering
        // browser draw a frame every 16 ms.
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            animationDuration: '0.01ms !important',
            animationIterationCount: '1 !important',
            transitionDuration: '0.01ms !important',
            scrollBehavior: 'auto !important',
          },
        },
      },
    },
  },
});
