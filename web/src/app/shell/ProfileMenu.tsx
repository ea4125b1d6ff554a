import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { userApi, userKeys } from '../../api/user';
import type { User } from '../../api/types';
import { HeaderPopover, useHeaderPopover } from '../../ui/HeaderPopover';
import { profileMenuEntries } from '../../core/registry';
import { logout } from '../../core/session';
import { fullName, useSessionStore } from '../../core/sessionStore';

/** A domain and the user's roles there (GET user/{id}/roles). */

/** 'Domain Roles' of a non-admin: each domain with the user's roles there. */
function DomainRolesList({ userId }: { userId: User['id'] }) {
  const roles = useQuery({
    queryKey: userKeys.roles(userId),
    queryFn: () => userApi.roles(userId),
    staleTime: 0, // roles change when an administrator assigns them: ask each time the menu opens
  });
  const line = (text: string, key?: string | number) => (
    <Typography key={key} variant="body2" sx={{ px: 2, pb: 0.5 }} color="text.secondary">
      {text}
    </Typography>
  );
  if (roles.isPending) return line('Loading roles…');
  if (roles.isError) return line('Failed to fetch roles');
  if (roles.data.length === 0) return line('No domain roles');
  return (
    <Box aria-label="Domain Roles" role="list">
      {roles.data.map((domain) => (
        <Typography key={domain.domainId} role="listitem" variant="body2" sx={{ px: 2, pb: 0.5 }}>
          <Box component="span" sx={{ fontWeight: 600 }}>
            {domain.domainName}
          </Box>
          {`: ${(domain.roles ?? []).join(', ') || 'no role'}`}
        </Typography>
      ))}
    </Box>
  );
}

/**
 * Profile menu (spec 1 §2.5): full name, user name and e-mail; 'Admin' for
 * admins, otherwise 'Domain Roles' with the user's roles per domain (GET user/{id}/roles);
 * registered entries (Edit Profile opens the profile dialog); Log out.
 */
export function ProfileMenu() {
  const user = useSessionStore((s) => s.user);
  const menu = useHeaderPopover();
  const [openDialog, setOpenDialog] = useState<string | null>(null);
  // A dialog is mounted once first opened (its code loads then) and stays for its close animation.
  const [mounted, setMounted] = useState<ReadonlySet<string>>(new Set());
  if (!user) return null;

  const name = fullName(user) || user.userName;
  const entries = profileMenuEntries();
  const close = menu.close;
  const initials =
    `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`.toUpperCase() || user.userName[0]?.toUpperCase();

  return (
    <>
      <HeaderPopover
        control={menu}
        label={`Profile ${initials}`}
        icon={
          <Avatar aria-hidden sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: 15 }}>
            {initials}
          </Avatar>
        }
        kind="menu"
        id="profile-menu"
        paperSx={{ minWidth: 260 }}
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
        {!user.admin && menu.open && <DomainRolesList userId={user.id} />}
        <Divider />
        {entries.map((entry) => (
          <MenuItem
            key={entry.id}
            onClick={() => {
              close();
              setMounted((m) => new Set(m).add(entry.id));
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
      </HeaderPopover>
      {entries
        .filter(({ id }) => mounted.has(id))
        .map(({ id, Dialog }) => (
          <Suspense key={id} fallback={null}>
            <Dialog open={openDialog === id} onClose={() => setOpenDialog(null)} />
          </Suspense>
        ))}
    </>
  );
}
