import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { domainKeys } from '../../api/domain';
import { permissionKeys, permissionsApi, type PermissionGroup } from '../../api/permissions';
import type { Domain } from '../../api/types';
import { toasts } from '../../core/toastService';
import { DataTable, type Column } from '../../ui/DataTable';
import { useAction } from '../../ui/useAction';
import { useGroups } from './domainQueries';
import { GroupDialog } from './GroupDialog';
import { permissionLabel } from './validation';

/** The permission groups of a domain: create, edit permissions, delete. */
export function DomainGroups({ domain }: { domain: Domain }) {
  const groups = useGroups(domain.id);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<PermissionGroup | null>(null);
  const refreshKeys = [permissionKeys.groups(domain.id), domainKeys.members(domain.id)];

  const create = useAction({
    action: (body: { groupName: string; permissions: string[] }) =>
      permissionsApi.createGroup(domain.id, body.groupName, body.permissions),
    success: (_, body) => `Group ${body.groupName} created.`,
    failure: 'Could not create the group',
    invalidate: refreshKeys,
  });

  const update = useAction({
    action: (body: { groupName: string; permissions: string[] }) =>
      permissionsApi.updatePermissions(domain.id, body.groupName, body.permissions),
    success: (_, body) => `Permissions of ${body.groupName} saved.`,
    failure: 'Could not save the permissions',
    invalidate: refreshKeys,
  });

  const remove = useAction({
    action: (groupName: string) => permissionsApi.deleteGroup(domain.id, groupName),
    success: (_, groupName) => `Group ${groupName} deleted.`,
    failure: 'Could not delete the group',
    invalidate: refreshKeys,
  });

  async function confirmDelete(groupName: string) {
    const question = `Delete the group ${groupName}? Its members lose its permissions.`;
    if (await toasts.prompt(question, { title: 'Delete Group' })) remove.run(groupName);
  }

  const columns: Array<Column<PermissionGroup>> = [
    { id: 'group', header: 'Group', cell: (g) => g.groupName, sortValue: (g) => g.groupName, rowHeader: true },
    {
      id: 'permissions',
      header: 'Permissions',
      cell: (g) => (
        <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
          {(g.permissions ?? []).map(permissionLabel).join(', ') || 'none'}
        </Typography>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (group) => (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button size="small" onClick={() => setEditing(group)} aria-label={`Edit permissions of ${group.groupName}`}>
            Edit Permissions
          </Button>
          <Button
            size="small"
            color="error"
            onClick={() => void confirmDelete(group.groupName)}
            disabled={remove.pending}
            aria-label={`Delete group ${group.groupName}`}
          >
            Delete
          </Button>
        </Stack>
      ),
    },
  ];

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            <Typography variant="h6" component="h3" sx={{ flex: 1 }}>
              Permission groups
            </Typography>
            <Button variant="outlined" onClick={() => setCreating(true)}>
              Create Group
            </Button>
          </Stack>
          <DataTable
            label="Permission groups"
            columns={columns}
            rows={groups.data}
            rowKey={(g) => g.groupName}
            loading={groups.isPending}
            loadingText="Loading groups"
            error={groups.error}
            errorTitle="Could not load the groups"
            onRetry={() => void groups.refetch()}
            emptyText="This domain has no groups yet."
            initialSort={{ column: 'group' }}
          />
        </Stack>
      </CardContent>
      <GroupDialog
        open={creating}
        onSubmit={(groupName, permissions) => create.submit({ groupName, permissions })}
        onClose={() => setCreating(false)}
      />
      <GroupDialog
        open={!!editing}
        group={editing ? { groupName: editing.groupName, permissions: editing.permissions ?? [] } : undefined}
        onSubmit={(groupName, permissions) => update.submit({ groupName, permissions })}
        onClose={() => setEditing(null)}
      />
    </Card>
  );
}
