import CancelIcon from '@mui/icons-material/Cancel';
import { paths } from '../../app/paths';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import type { Domain, User } from '../../api/types';
import { selectDomain, useSelectionStore } from '../../app/selection/selectionStore';
import { useDomains } from '../../app/selection/useDomains';
import { fullName, useSessionStore } from '../../app/session/sessionStore';
import { toasts } from '../../app/toasts/toastService';
import { domainApi, domainKeys, type DomainMember } from '../../api/domain';
import { portalApi, portalKeys } from '../../api/portal';
import { permissionKeys, permissionsApi, type PermissionGroup } from '../../api/permissions';
import { userKeys } from '../../api/user';
import { PageFrame } from '../../ui/PageFrame';
import { LoadError, Loading } from '../../ui/Loading';
import { PendingButton } from '../../ui/ConfirmDialog';
import { DataTable, type Column } from '../../ui/DataTable';
import { useAction } from '../../ui/useAction';
import { usePermission } from '../../app/permissions/usePermission';
import { GroupDialog } from './GroupDialog';
import { NameDialog } from './NameDialog';
import { permissionLabel } from './validation';

const domainsPath = paths.adminDomains;

/**
 * Domains (spec 1 §2.1 admin/domains/{domainId}; -1 when there is no domain).
 * Opening -1 while domains exist shows the first one (by name), which is the
 * navigation target rule of the Domains menu entry (app/nav/menus.ts).
 */
export default function DomainsScreen() {
  const { domainId = '-1' } = useParams();
  const navigate = useNavigate();
  const isAdmin = useSessionStore((s) => !!s.user?.admin);
  const domains = useDomains();
  const [creating, setCreating] = useState(false);

  const create = useAction({
    action: (name: string) => domainApi.create(name),
    success: (domain) => `Domain ${domain.name} created.`,
    failure: 'Could not create the domain',
    invalidate: [domainKeys.list],
    onSuccess: (domain) => {
      setCreating(false);
      void navigate(domainsPath(domain.id));
    },
  });

  const list = domains.data ?? [];
  if (domainId === '-1' && list.length > 0) return <Navigate to={domainsPath(list[0].id)} replace />;
  const selected = list.find((d) => String(d.id) === domainId) ?? null;

  return (
    <PageFrame
      title="Domains"
      actions={
        isAdmin && (
          <Button variant="contained" onClick={() => setCreating(true)}>
            Create Domain
          </Button>
        )
      }
    >
      {domains.isPending && <Loading label="Loading Domains" />}
      {domains.isError && (
        <LoadError title="Failed to load the domains" error={domains.error} onRetry={() => void domains.refetch()} />
      )}
      {domains.isSuccess && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Card variant="outlined" sx={{ width: { xs: '100%', md: 260 }, flexShrink: 0 }}>
            {list.length === 0 ? (
              <Typography sx={{ p: 2 }} color="text.secondary">
                No domains yet.{isAdmin ? ' Create the first one.' : ''}
              </Typography>
            ) : (
              <List dense aria-label="Domains">
                {list.map((d) => (
                  <ListItem key={String(d.id)} disablePadding>
                    <ListItemButton
                      selected={d === selected}
                      aria-current={d === selected ? 'page' : undefined}
                      onClick={() => navigate(domainsPath(d.id))}
                    >
                      <ListItemText primary={d.name} />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            )}
          </Card>
          <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
            {selected ? (
              <DomainDetails key={String(selected.id)} domain={selected} isAdmin={isAdmin} />
            ) : (
              list.length > 0 && <Typography color="text.secondary">No such domain.</Typography>
            )}
          </Box>
        </Stack>
      )}
      <NameDialog
        open={creating}
        title="Create Domain"
        label="Domain name"
        submitLabel="Create"
        onSubmit={create.submit}
        onClose={() => setCreating(false)}
      />
    </PageFrame>
  );
}

function DomainDetails({ domain, isAdmin }: { domain: Domain; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState(false);

  const rename = useAction({
    action: (name: string) => domainApi.rename(domain.id, name),
    success: (_, name) => `Domain renamed to ${name}.`,
    failure: 'Could not rename the domain',
    invalidate: [domainKeys.list],
    onSuccess: () => setRenaming(false),
  });

  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const remove = useAction({
    action: () => domainApi.remove(domain.id),
    success: `Domain ${domain.name} deleted.`,
    failure: 'Could not delete the domain',
    onSuccess: async () => {
      setConfirmingDelete(false);
      // The domain's portals went with it: leave them if one was open, forget their lists.
      if (String(useSelectionStore.getState().domain?.id) === String(domain.id)) selectDomain(null);
      queryClient.removeQueries({ queryKey: portalKeys.domainWorkspaces(domain.id) });
      queryClient.removeQueries({ queryKey: portalKeys.domainPortals(domain.id) });
      queryClient.removeQueries({ queryKey: portalKeys.domainManaged(domain.id) });
      queryClient.removeQueries({ queryKey: domainKeys.one(domain.id) });
      void navigate(domainsPath(-1), { replace: true });
      await queryClient.invalidateQueries({ queryKey: domainKeys.list });
    },
  });

  const logo = useAction({
    action: (file: File | null) => (file ? domainApi.setLogo(domain.id, file) : domainApi.removeLogo(domain.id)),
    success: (_, file) => (file ? 'Logo uploaded.' : 'Logo removed.'),
    failure: 'Could not change the logo',
    invalidate: [domainKeys.list, domainKeys.logo(domain.id)],
  });

  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h5" component="h2" sx={{ flex: 1 }}>
              {domain.name}
            </Typography>
            <Button variant="outlined" onClick={() => setRenaming(true)}>
              Rename
            </Button>
            <Button variant="outlined" component="label" disabled={logo.pending}>
              Upload Logo
              <input
                hidden
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                aria-label="Logo file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) logo.run(file);
                }}
              />
            </Button>
            {domain.hasLogo && (
              <Button variant="outlined" disabled={logo.pending} onClick={() => logo.run(null)}>
                Remove Logo
              </Button>
            )}
            {isAdmin && (
              <Button
                variant="outlined"
                color="error"
                onClick={() => setConfirmingDelete(true)}
                disabled={remove.pending}
              >
                Delete Domain
              </Button>
            )}
          </Stack>
        </CardContent>
      </Card>
      <Members domain={domain} isAdmin={isAdmin} />
      <Groups domain={domain} />
      {confirmingDelete && (
        <DeleteDomainDialog
          domain={domain}
          busy={remove.pending}
          onConfirm={() => remove.run()}
          onClose={() => setConfirmingDelete(false)}
        />
      )}
      <NameDialog
        open={renaming}
        title="Rename Domain"
        label="Domain name"
        submitLabel="Rename"
        initialName={domain.name}
        onSubmit={rename.submit}
        onClose={() => setRenaming(false)}
      />
    </Stack>
  );
}

// ---------------------------------------------------------------------------
// Deleting a domain

export const DELETE_DOMAIN_TEXT = {
  title: 'Delete Domain',
  intro: (name: string) => `Delete the domain ${name}? This cannot be undone. It deletes:`,
  portals: (n: number) =>
    n === 1
      ? 'Its portal, with its repository, branches and every workspace:'
      : `Its ${n} portals, with their repositories, branches and every workspace:`,
  noPortals: 'No portals: the domain has none.',
  members: (n: number) =>
    n === 0
      ? 'No members.'
      : `Its ${n} ${n === 1 ? 'member loses' : 'members lose'} access to the domain (their accounts stay):`,
  groups: (n: number) => (n === 0 ? 'No permission groups.' : `Its ${n} permission ${n === 1 ? 'group' : 'groups'}:`),
  portalsFailed: 'Could not list the portals of the domain',
} as const;

/** A list of names in a dialog, scrolling when long. */
function NameList({ label, names }: { label: string; names: string[] }) {
  if (names.length === 0) return null;
  return (
    <Box component="ul" aria-label={label} sx={{ mt: 0.5, mb: 1.5, pl: 3, maxHeight: 180, overflowY: 'auto' }}>
      {names.map((name, i) => (
        <li key={`${name}-${i}`}>
          <Typography variant="body2">{name}</Typography>
        </li>
      ))}
    </Box>
  );
}

/**
 * Says what deleting a domain deletes before it happens: its portals by name (with their
 * repositories; the server audits each), its members (who lose access) and its groups.
 * Delete is offered only once the portals are known.
 */
function DeleteDomainDialog({
  domain,
  busy,
  onConfirm,
  onClose,
}: {
  domain: Domain;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const portals = useQuery({
    queryKey: domainKeys.portals(domain.id),
    queryFn: () => portalApi.list(domain.id),
    staleTime: 0,
  });
  const members = useMembers(domain.id);
  const groups = useQuery({
    queryKey: permissionKeys.groups(domain.id),
    queryFn: () => permissionsApi.groups(domain.id),
  });
  const portalNames = (portals.data ?? []).map((p) => p.name).sort((a, b) => a.localeCompare(b));
  const memberNames = (members.data ?? []).map((m) => {
    const name = fullName({ firstName: m.firstName ?? '', middleName: m.middleName ?? '', lastName: m.lastName ?? '' });
    return name ? `${name} (${m.userName})` : m.userName;
  });
  const groupNames = (groups.data ?? []).map((g) => g.groupName);
  const known = portals.isSuccess && members.isSuccess && groups.isSuccess;
  return (
    <Dialog open onClose={() => !busy && onClose()} fullWidth maxWidth="sm" aria-labelledby="delete-domain-title">
      <DialogTitle id="delete-domain-title">{DELETE_DOMAIN_TEXT.title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1.5 }}>{DELETE_DOMAIN_TEXT.intro(domain.name)}</DialogContentText>
        {portals.isPending && <Loading label="Loading portals" />}
        {portals.isError && (
          <LoadError
            title={DELETE_DOMAIN_TEXT.portalsFailed}
            error={portals.error}
            onRetry={() => void portals.refetch()}
          />
        )}
        {portals.isSuccess && (
          <>
            <Typography variant="subtitle2" component="p">
              {portalNames.length === 0 ? DELETE_DOMAIN_TEXT.noPortals : DELETE_DOMAIN_TEXT.portals(portalNames.length)}
            </Typography>
            <NameList label="Portals to delete" names={portalNames} />
          </>
        )}
        {members.isSuccess && (
          <>
            <Typography variant="subtitle2" component="p">
              {DELETE_DOMAIN_TEXT.members(memberNames.length)}
            </Typography>
            <NameList label="Members losing access" names={memberNames} />
          </>
        )}
        {(members.isError || groups.isError) && (
          <LoadError
            title="Could not list the members and groups of the domain"
            error={members.error ?? groups.error}
            onRetry={() => void Promise.all([members.refetch(), groups.refetch()])}
          />
        )}
        {groups.isSuccess && (
          <>
            <Typography variant="subtitle2" component="p">
              {DELETE_DOMAIN_TEXT.groups(groupNames.length)}
            </Typography>
            <NameList label="Groups to delete" names={groupNames} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <PendingButton color="error" pending={busy} disabled={!known} onClick={onConfirm}>
          Delete Domain
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------
// Members

interface MemberRow extends DomainMember {
  groups: string[];
}

function useMembers(domainId: Domain['id']) {
  return useQuery({
    queryKey: domainKeys.members(domainId),
    queryFn: async (): Promise<MemberRow[]> => {
      const [members, info] = await Promise.all([domainApi.members(domainId), domainApi.membersInfo(domainId)]);
      const groupsOf = new Map(info.map((i) => [String(i.userId), (i.accountGroups ?? []).map((g) => g.groupName)]));
      return members.map((m) => ({ ...m, groups: groupsOf.get(String(m.id)) ?? [] }));
    },
  });
}

function Members({ domain, isAdmin }: { domain: Domain; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const members = useMembers(domain.id);
  const groups = useQuery({
    queryKey: permissionKeys.groups(domain.id),
    queryFn: () => permissionsApi.groups(domain.id),
  });
  const [adding, setAdding] = useState(false);
  const myId = useSessionStore((s) => s.user?.id);
  // Holders of domain_user_create in this domain may add members too (from the candidates list).
  const selectedDomain = useSelectionStore((s) => s.domain?.id);
  const mayCreateMembers = usePermission('domain_user_create');
  const canAdd = isAdmin || (String(selectedDomain) === String(domain.id) && mayCreateMembers);
  // The server refuses a non-admin changing their own roles (403 OWN_ROLES): not offered.
  const rolesLocked = (member: MemberRow) => !isAdmin && myId !== undefined && String(member.id) === String(myId);

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
      cell: (m) => fullName({ firstName: m.firstName ?? '', middleName: m.middleName, lastName: m.lastName ?? '' }),
      sortValue: (m) => `${m.lastName ?? ''} ${m.firstName ?? ''}`,
    },
    {
      id: 'groups',
      header: 'Groups',
      cell: (member) => (
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {member.groups.map((group) =>
            rolesLocked(member) ? (
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
        const assignable = groupNames.filter((g) => !member.groups.includes(g));
        return (
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
            {assignable.length > 0 && (
              <TextField
                select
                size="small"
                label={`Add group for ${member.userName}`}
                value=""
                onChange={(e) => assign.run({ member, group: e.target.value })}
                disabled={assign.pending || rolesLocked(member)}
                helperText={rolesLocked(member) ? 'You cannot change your own roles' : undefined}
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

/**
 * Adds a user to the domain, with a group for admins. The choices are GET domain/{id}/candidates
 * (everyone for admins; for holders of domain_user_create, the users they may add).
 */
function AddMemberDialog({
  open,
  domain,
  members,
  groups,
  onClose,
  onAdded,
}: {
  open: boolean;
  domain: Domain;
  members: MemberRow[];
  groups: string[];
  onClose: () => void;
  onAdded: (userId: User['id']) => void;
}) {
  const users = useQuery({
    queryKey: domainKeys.candidates(domain.id),
    queryFn: () => domainApi.candidates(domain.id),
    enabled: open,
    staleTime: 0,
  });
  const [userId, setUserId] = useState('');
  const [group, setGroup] = useState('');
  const memberIds = new Set(members.map((m) => String(m.id)));
  const candidates = (users.data ?? []).filter((u) => !memberIds.has(String(u.id)));

  const add = useAction({
    action: async (target: { userId: string; group: string }) => {
      await domainApi.addMember(domain.id, target.userId);
      if (target.group) await permissionsApi.addRole(target.userId, domain.id, target.group);
    },
    success: (_, target) => {
      const user = candidates.find((u) => String(u.id) === target.userId);
      return `${user?.userName ?? 'User'} added to ${domain.name}${target.group ? ` (${target.group})` : ''}.`;
    },
    failure: 'Could not add the member',
    onSuccess: (_, target) => {
      setUserId('');
      setGroup('');
      onAdded(target.userId);
    },
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (userId) add.run({ userId, group });
  }

  return (
    <Dialog open={open} onClose={() => !add.pending && onClose()} fullWidth maxWidth="xs">
      <form noValidate onSubmit={handleSubmit}>
        <DialogTitle>Add Member</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {users.isPending && <Loading label="Loading users" />}
            {users.isError && (
              <LoadError title="Could not load the users" error={users.error} onRetry={() => void users.refetch()} />
            )}
            {users.isSuccess && candidates.length === 0 && (
              <Typography color="text.secondary">Every user is already a member.</Typography>
            )}
            {users.isSuccess && candidates.length > 0 && (
              <>
                <TextField select label="User" size="small" value={userId} onChange={(e) => setUserId(e.target.value)}>
                  {candidates.map((u) => (
                    <MenuItem key={String(u.id)} value={String(u.id)}>
                      {u.userName}
                      {fullName({ firstName: u.firstName ?? '', middleName: u.middleName, lastName: u.lastName ?? '' })
                        ? ` (${fullName({ firstName: u.firstName ?? '', middleName: u.middleName, lastName: u.lastName ?? '' })})`
                        : ''}
                    </MenuItem>
                  ))}
                </TextField>
                {groups.length > 0 && (
                  <TextField
                    select
                    label="Group (optional)"
                    size="small"
                    value={group}
                    onChange={(e) => setGroup(e.target.value)}
                  >
                    <MenuItem value="">
                      <em>No group</em>
                    </MenuItem>
                    {groups.map((g) => (
                      <MenuItem key={g} value={g}>
                        {g}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={add.pending}>
            Cancel
          </Button>
          <PendingButton type="submit" pending={add.pending} disabled={!userId}>
            Add
          </PendingButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------
// Permission groups

function Groups({ domain }: { domain: Domain }) {
  const groups = useQuery({
    queryKey: permissionKeys.groups(domain.id),
    queryFn: () => permissionsApi.groups(domain.id),
  });
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
