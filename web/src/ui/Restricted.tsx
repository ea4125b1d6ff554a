import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import type { ReactNode } from 'react';
import { NO_PERMISSION_MESSAGE, usePermission } from '../core/usePermission';

interface Props {
  /** Every permission listed is needed. */
  permission: string | readonly string[];
  children: ReactNode;
}

/** A restricted element: hidden unless the user holds all listed permissions (spec 1 §6). */
export function Restricted({ permission, children }: Props) {
  return usePermission(permission) ? <>{children}</> : null;
}

/** A view that checks a permission: without it, the spec's message instead of the view. */
export function PermissionView({ permission, children }: Props) {
  if (usePermission(permission)) return <>{children}</>;
  return (
    <Box
      role="alert"
      sx={{ display: 'grid', placeItems: 'center', gap: 2, py: 8, px: 2, textAlign: 'center', color: 'text.secondary' }}
    >
      <LockOutlinedIcon fontSize="large" aria-hidden />
      <Typography>{NO_PERMISSION_MESSAGE}</Typography>
    </Box>
  );
}
