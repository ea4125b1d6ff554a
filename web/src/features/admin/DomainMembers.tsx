import CancelIcon from '@mui/icons-material/Cancel';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { domainApi, domainKeys } from '../../api/domain';
import { permissionsApi } from '../../api/permissions';
import type { Domain, User } from '../../api/types';
import { userKeys } from '../../api/user';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';
import { toasts } from '../../core/toastService';
import { DataTable, type Column } from '../../ui/DataTable';
import { useAction } from '../../ui/useAction';
import { AddMemberDialog } from './AddMemberDialog';
import { useGroups, useMembers } from './domainQueries';
import { assignableGroups, canAddMembers, personName, rolesLocked, type MemberRow } from './model';

/** The members of a domain with their groups: assign and remove groups, remove members, add members. */
export function DomainMembers({ domain, isAdmin }: { domain: Domain; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const members = useMembers(domain.id);
  const groups = useGroups(domain.id);
  const [adding, setAdding] = useState(false);
  const myId = useSessionStore((s) => s.user?.id);
  // Holders of domain_user_create in this domain may add members too (from the candidates list).
  const selectedDomain = useSelectionStore((s) => s.domain?.id);
  const mayCreateMembers = usePermission('domain_user_create');
  const canAdd = canAddMembers({ isAdmin, selectedDomainId: selectedDomain, domainId: domain.id, mayCreateMembers });
  const locked = (member: MemberRow) => rolesLocked(isAdmin, myId, member);

  const refreshKeys = (userId: User['id']) => [domainKeys.members(domain.id), userKeys.roles(userId)];

  const removeMember = useAction({
    action: (member: MemberRow) => domainApi.removeMember(domain.id, member.id),
    success: (_, member) => `${member.userName} removed from ${domain.name}.`,
    failure: 'Could not remove the member',
    invalidate: (_, member) => refreshKeys(member.id),
  });

  const assign = useAction({
    action: (target: { member: MemberRow; group: string }) =>
      permissionsApi.addRole(target.member.id, domain.id, target.group),
    success: (_, { member, group }) => `${member.userName} added to ${group}.`,
    failure: 'Could not assign the group',
    invalidate: (_, { member }) => refreshKeys(member.id),
  });

  const unassign = useAction({
    action: (target: { member: MemberRow; group: string }) =>
      permissionsApi.removeRole(target.member.id, domain.id, target.group),
    success: (_, { member, group }) => `${member.userName} removed from ${group}.`,
    failure: 'Could not remove the group',
    invalidate: (_, { member }) => refreshKeys(member.id),
  });

  async function confirmRemove(member: MemberRow) {
    if (await toasts.prompt(`Remove ${member.userName} from the domain ${domain.name}?`, { title: 'Remove Member' })) {
      removeMember.run(member);
    }
  }

  async function confirmUnassign(member: MemberRow, group: string) {
    if (await toasts.prompt(`Remove ${member.userName} from the group ${group}?`)) unassign.run({ member, group });
  }

  const groupNames = (groups.data ?? []).map((g) => g.groupName);
  const columns: Array<Column<MemberRow>> = [
    { id: 'userName', header: 'User name', cell: (m) => m.userName, sortValue: (m) => m.userName, rowHeader: true },
    {
      id: 'name',
      header: 'Name',
      cell: (m) => personName(m),
      sortValue: (m) => `${m.lastName ?? ''} ${m.firstName ?? ''}`,
    },
    {
      id: 'groups',
      header: 'Groups',
      cell: (member) => (
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {member.groups.map((group) =>
            locked(member) ? (
              <Chip key={group} label={group} size="small" />
            ) : (
              <Chip
                key={group}
                label={group}
                size="small"
                onDelete={() => void confirmUnassign(member, group)}
                deleteIcon={
                  <CancelIcon
                    role="button"
                    aria-hidden={false}
                    aria-label={`Remove ${member.userName} from ${group}`}
                  />
                }
              />
            ),
          )}
        </Stack>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (member) => {
        const assignable = assignableGroups(groupNames, member);
        return (
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
            {assignable.length > 0 && (
              <TextField
                select
                size="small"
                label={`Add group for ${member.userName}`}
                value=""
                onChange={(e) => assign.run({ member, group: e.target.value })}
                disabled={assign.pending || locked(member)}
                helperText={locked(member) ? 'You cannot change your own roles' : undefined}
                sx={{ minWidth: 200 }}
              >
                {assignable.map((g) => (
                  <MenuItem key={g} value={g}>
                    {g}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <Button
              size="small"
              color="error"
              onClick={() => void confirmRemove(member)}
              disabled={removeMember.pending}
              aria-label={`Remove ${member.userName} from the domain`}
            >
              Remove
            </Button>
          </Stack>
        );
      },
    },
  ];

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            <Typography variant="h6" component="h3" sx={{ flex: 1 }}>
              Members
            </Typography>
            {canAdd && (
              <Button variant="outlined" onClick={() => setAdding(true)}>
                Add Member
              </Button>
            )}
          </Stack>
          <DataTable
            label="Members"
            columns={columns}
            rows={members.data}
            rowKey={(m) => String(m.id)}
            loading={members.isPending}
            loadingText="Loading members"
            error={members.error}
            errorTitle="Could not load the members"
            onRetry={() => void members.refetch()}
            emptyText="This domain has no members yet."
            initialSort={{ column: 'userName' }}
          />
        </Stack>
      </CardContent>
      {canAdd && (
        <AddMemberDialog
          open={adding}
          domain={domain}
          members={members.data ?? []}
          groups={isAdmin ? groupNames : []}
          onClose={() => setAdding(false)}
          onAdded={(userId) => {
            setAdding(false);
            void queryClient.invalidateQueries({ queryKey: domainKeys.members(domain.id) });
            void queryClient.invalidateQueries({ queryKey: userKeys.roles(userId) });
          }}
        />
      )}
    </Card>
  );
}
