import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import { useState } from 'react';
import type { DomainRole } from '../../api/types';
import { profileMenuEntries } from '../registry';
import { logout } from '../session/session';
import { fullName, useSessionStore } from '../session/sessionStore';

function roleLabel(role: DomainRole): string {
  const name = role.role ?? role.name ?? '';
  return role.domainName ? `${role.domainName}: ${name}` : name;
}

/**
 * Profile menu (spec 1 §2.5): full name, user name and e-mail; 'Admin' for
 * admins, otherwise 'Domain Roles' with the roles the profile reports;
 * registered entries (Edit Profile arrives with the profile dialog); Log out.
 */
export function ProfileMenu() {
  const user = useSessionStore((s) => s.user);
  const roles = useSessionStore((s) => s.roles);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [openDialog, setOpenDialog] = useState<string | null>(null);
  if (!user) return null;

  const name = fullName(user) || user.userName;
  const entries = profileMenuEntries();
  const close = () => setAnchor(null);
  const initials =
    `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`.toUpperCase() || user.userName[0]?.toUpperCase();

  return (
    <>
      <IconButton
        aria-label="Profile"
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'profile-menu' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <Avatar sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: 15 }}>{initials}</Avatar>
      </IconButton>
      <Menu
        id="profile-menu"
        anchorEl={anchor}
        open={!!anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 260 } } }}
      >
        <Box sx={{ px: 2, py: 1 }}>
          <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {user.userName}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {user.email}
          </Typography>
        </Box>
        <Divider />
        <ListSubheader sx={{ lineHeight: '32px' }}>{user.admin ? 'Admin' : 'Domain Roles'}</ListSubheader>
        {!user.admin &&
          roles.map((role, index) => (
            <Typography key={index} variant="body2" sx={{ px: 2, pb: 0.5 }}>
              {roleLabel(role)}
            </Typography>
          ))}
        <Divider />
        {entries.map((entry) => (
          <MenuItem
            key={entry.id}
            onClick={() => {
              close();
              setOpenDialog(entry.id);
            }}
          >
            {entry.label}
          </MenuItem>
        ))}
        <MenuItem
          onClick={() => {
            close();
            void logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          Log out
        </MenuItem>
      </Menu>
      {entries.map(({ id, Dialog }) => (
        <Dialog key={id} open={openDialog === id} onClose={() => setOpenDialog(null)} />
      ))}
    </>
  );
}
