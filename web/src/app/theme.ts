import { createTheme } from '@mui/material/styles';

const PRIMARY = '#13315c';

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
    // A visible focus ring on every button, tab, checkbox and menu item reached by keyboard
    // (WCAG 2.4.7; issue 31): MUI's focus ripple alone is faint, and none with elevation off.
    // Two tones: the white inner ring shows it on the dark side navigation too.
    MuiButtonBase: {
      styleOverrides: {
        root: {
          '&.Mui-focusVisible': { outline: `2px solid ${PRIMARY}`, outlineOffset: 2, boxShadow: '0 0 0 2px #fff' },
        },
      },
    },
    // Inside a scroller or a menu an outer ring would be cut off: drawn inside.
    MuiTab: { styleOverrides: { root: { '&.Mui-focusVisible': { outlineOffset: -2, boxShadow: 'none' } } } },
    MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': { outlineOffset: -2, boxShadow: 'none' } } } },
  },
});
