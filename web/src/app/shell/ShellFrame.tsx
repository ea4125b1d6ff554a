import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { BannerSlot } from './BannerSlot';
import { Header } from './Header';
import { SideNav } from '../nav/SideNav';
import { RealtimeMount } from '../../features/realtime';

/** The signed-in frame (spec 1 §1, §2.3): side navigation, header, banner and the routed content. */
export default function ShellFrame() {
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <RealtimeMount />
      <SideNav />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Header />
        <BannerSlot />
        <Box component="main" sx={{ flex: 1, p: 3, overflow: 'auto' }}>
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
