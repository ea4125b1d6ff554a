import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { BannerSlot } from './BannerSlot';
import { Header, NARROW_SCREEN } from './Header';
import { MAIN_ID, useRouteFocus } from './mainFocus';
import { SkipLink } from './SkipLink';
import { SideNav } from '../nav/SideNav';
import { RealtimeMount } from '../../features/realtime';
import { ShortcutsHelp } from '../shortcuts/ShortcutsHelp';

/**
 * The signed-in frame (spec 1 §1, §2.3): side navigation, header, banner and the routed content.
 * Below the `md` breakpoint (a phone) the side navigation is a drawer opened from the header's
 * menu button, so the content keeps the screen's width; it stays mounted (its pickers host the
 * portal chain) and closes when the route changes.
 * Keyboard: the skip link is the first Tab stop; after a route change the focus goes to the new
 * screen's heading (mainFocus.ts); `?` lists the shortcuts (app/shortcuts).
 */
export default function ShellFrame() {
  const narrow = useMediaQuery(NARROW_SCREEN, { noSsr: true });
  const [navOpen, setNavOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setNavOpen(false), [pathname]);
  const main = useRef<HTMLElement>(null);
  useRouteFocus(main);
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <SkipLink />
      <RealtimeMount />
      <ShortcutsHelp />
      {narrow ? (
        <Drawer
          open={navOpen}
          onClose={() => setNavOpen(false)}
          ModalProps={{ keepMounted: true }}
          slotProps={{ paper: { 'aria-label': 'Navigation' } }}
        >
          <SideNav />
        </Drawer>
      ) : (
        <SideNav />
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Header onOpenNav={() => setNavOpen(true)} />
        <BannerSlot />
        <Box component="main" id={MAIN_ID} ref={main} sx={{ flex: 1, p: { xs: 2, md: 3 }, overflow: 'auto' }}>
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
