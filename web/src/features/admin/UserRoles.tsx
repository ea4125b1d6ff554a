import CancelIcon from '@mui/icons-material/Cancel';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { domainKeys } from '../../api/domain';
import { permissionKeys, permissionsApi } from '../../api/permissions';
import type { User } from '../../api/types';
import { userApi, userKeys, type UserDomainRoles } from '../../api/user';
import { useDomains } from '../../core/useDomains';
import { toasts } from '../../core/toastService';
import { DataTable, type Column } from '../../ui/DataTable';
import { useAction } from '../../ui/useAction';

/** A user's roles per domain: the table with a remove chip per role, and Add Role (domain, group). */
export function UserRoles({ user }: { user: User }) {
  const roles = useQuery({ queryKey: userKeys.roles(user.id), queryFn: () => userApi.roles(user.id) });
  const domains = useDomains();
  const [domainId, setDomainId] = useState('');
  const [role, setRole] = useState('');
  const groups = useQuery({
    queryKey: permissionKeys.groups(domainId),
    queryFn: () => permissionsApi.groups(domainId),
    enabled: domainId !== '',
  });

  const add = useAction({
    action: (target: { domainId: string; role: string }) =>
      permissionsApi.addRole(user.id, target.domainId, target.role),
    success: (_, target) => `Role ${target.role} added.`,
    failure: 'Could not add the role',
    invalidate: (_, target) => [userKeys.roles(user.id), domainKeys.members(target.domainId)],
    onSuccess: () => setRole(''),
  });

  const remove = useAction({
    action: (target: { domainId: string | number; role: string }) =>
      permissionsApi.removeRole(user.id, target.domainId, target.role),
    success: (_, target) => `Role ${target.role} removed.`,
    failure: 'Could not remove the role',
    invalidate: (_, target) => [userKeys.roles(user.id), domainKeys.members(target.domainId)],
  });

  async function confirmRemove(target: { domainId: string | number; domainName: string; role: string }) {
    if (await toasts.prompt(`Remove the role ${target.role} in ${target.domainName} from ${user.userName}?`)) {
      remove.run(target);
    }
  }

  const columns: Array<Column<UserDomainRoles>> = [
    { id: 'domain', header: 'Domain', cell: (entry) => entry.domainName },
    {
      id: 'roles',
      header: 'Roles',
      cell: (entry) => (
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {(entry.roles ?? []).length === 0 && (
            <Typography variant="body2" color="text.secondary">
              Member, no role
            </Typography>
          )}
          {(entry.roles ?? []).map((r) => (
            <Chip
              key={r}
              label={r}
              size="small"
              onDelete={() => void confirmRemove({ domainId: entry.domainId, domainName: entry.domainName, role: r })}
              deleteIcon={
                <CancelIcon role="button" aria-hidden={false} aria-label={`Remove role ${r} in ${entry.domainName}`} />
              }
            />
          ))}
        </Stack>
      ),
    },
  ];

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Domain roles
          </Typography>
          <DataTable
            label="Domain roles"
            columns={columns}
            rows={roles.data}
            rowKey={(entry) => String(entry.domainId)}
            loading={roles.isPending}
            loadingText="Loading roles"
            error={roles.error}
            errorTitle="Could not load the roles"
            onRetry={() => void roles.refetch()}
            emptyText="No roles in any domain."
            paged={false}
          />
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <TextField
              select
              label="Domain"
              size="small"
              value={domainId}
              onChange={(e) => {
                setDomainId(e.target.value);
                setRole('');
              }}
              helperText=" "
              sx={{ minWidth: 160, flex: 1 }}
            >
              {(domains.data ?? []).map((d) => (
                <MenuItem key={String(d.id)} value={String(d.id)}>
                  {d.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Group"
              size="small"
              value={role}
              onChange={(e) => setRole(e.target.value)}
              disabled={!domainId || !groups.isSuccess || groups.data.length === 0}
              helperText={domainId && groups.isSuccess && groups.data.length === 0 ? 'This domain has no groups' : ' '}
              sx={{ minWidth: 160, flex: 1 }}
            >
              {(groups.data ?? []).map((g) => (
                <MenuItem key={g.groupName} value={g.groupName}>
                  {g.groupName}
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="outlined"
              onClick={() => add.run({ domainId, role })}
              disabled={!domainId || !role || add.pending}
              sx={{ mt: 0.5 }}
            >
              Add Role
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
