import Box from '@mui/material/Box';
import { visuallyHidden } from '../../ui/visuallyHidden';
import { focusMain, MAIN_ID } from './mainFocus';

export const SKIP_LINK_TEXT = 'Skip to main content';

/**
 * The first Tab stop of every signed-in screen (WCAG 2.4.1): hidden until focused, then shown
 * at the top left; Enter moves the focus to the screen's heading. The routes live in the URL's
 * hash, so the link moves the focus itself instead of following its href.
 */
export function SkipLink() {
  return (
    <Box
      component="a"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        event.preventDefault();
        focusMain(document.getElementById(MAIN_ID));
      }}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: (t) => t.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        boxShadow: 3,
        bgcolor: 'background.paper',
        color: 'primary.main',
        fontWeight: 600,
        '&:not(:focus)': visuallyHidden,
      }}
    >
      {SKIP_LINK_TEXT}
    </Box>
  );
}
