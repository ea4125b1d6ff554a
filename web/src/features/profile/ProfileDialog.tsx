import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { useSessionStore } from '../../core/sessionStore';
import { LoginDetailsTab } from './LoginDetailsTab';
import { PreferencesTab } from './PreferencesTab';
import { SshKeyTab } from './SshKeyTab';
import { UserDetailsTab } from './UserDetailsTab';

export const PROFILE_DIALOG_WIDTH = 800; // spec 1 §9

const TABS = ['User Details', 'Login Details', 'User Preferences', 'SSH Key'] as const;

/** The user profile dialog (spec 1 §2.5): four tabs, 800 px wide. */
export default function ProfileDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const user = useSessionStore((s) => s.user);
  const [tab, setTab] = useState(0);
  if (!user) return null;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="profile-dialog-title"
      slotProps={{
        paper: { sx: { width: PROFILE_DIALOG_WIDTH, maxWidth: 'calc(100% - 32px)' } },
        transition: { onExited: () => setTab(0) },
      }}
    >
      <DialogTitle id="profile-dialog-title">Edit Profile</DialogTitle>
      <Box sx={{ borderBottom: 1, borderColor: 'divider', px: 3 }}>
        <Tabs value={tab} onChange={(_, value: number) => setTab(value)} aria-label="Profile sections">
          {TABS.map((label, index) => (
            <Tab
              key={label}
              label={label}
              id={`profile-tab-${index}`}
              aria-controls={index === tab ? `profile-panel-${index}` : undefined}
            />
          ))}
        </Tabs>
      </Box>
      <DialogContent sx={{ minHeight: 380 }}>
        <Box role="tabpanel" id={`profile-panel-${tab}`} aria-labelledby={`profile-tab-${tab}`} sx={{ pt: 2 }}>
          {tab === 0 && <UserDetailsTab user={user} />}
          {tab === 1 && <LoginDetailsTab user={user} />}
          {tab === 2 && <PreferencesTab user={user} />}
          {tab === 3 && <SshKeyTab user={user} />}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
