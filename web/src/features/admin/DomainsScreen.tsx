import CancelIcon from '@mui/icons-material/Cancel';
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
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { portalApi } from '../../api/portal';
import type { Domain, User } from '../../api/types';
import { selectDomain, useSelectionStore } from '../../app/selection/selectionStore';
import { DOMAINS_QUERY_KEY, useDomains } from '../../app/selection/useDomains';
import { fullName, useSessionStore } from '../../app/session/sessionStore';
import { showHttpError, toasts } from '../../app/toasts/toastService';
import { adminApi, adminKeys, type DomainMember, type PermissionGroup } from './api';
import { AdminPage, LoadError, Loading } from './AdminPage';
import { GroupDialog } from './GroupDialog';
import { NameDialog } from './NameDialog';

const domainsPath = (id: Domain['id'] | -1) => `/admin/domains/${id}`;

/**
 * Domains (spec 1 §2.1 admin/domains/{domainId}; -1 when there is no domain).
 * Opening -1 while domains exist shows the first one (by name), which is the
 * navigation target rule of the Domains menu entry (app/nav/menus.ts).
 */
export default function DomainsScreen() {
  const { domainId = '-1' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isAdmin = useSessionStore((s) => !!s.user?.admin);
  const domains = useDomains();
  const [creating, setCreating] = useState(false);

  const create = useMutation({
    mutationFn: (name: string) => adminApi.createDomain(name),
    onSuccess: async (domain) => {
      toasts.success(`Domain ${domain.name} created.`, 'SUCCESS');
      setCreating(false);
      await queryClient.invalidateQueries({ queryKey: DOMAINS_QUERY_KEY });
      navigate(domainsPath(domain.id));
    },
    onError: (error) => showHttpError(error, 'Could not create the domain'),
  });

  const list = domains.data ?? [];
  if (domainId === '-1' && list.length > 0) return <Navigate to={domainsPath(list[0].id)} replace />;
  const selected = list.find((d) => String(d.id) === domainId) ?? null;

  return (
    <AdminPage
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
                  <ListItemButton
                    key={String(d.id)}
                    selected={d === selected}
                    aria-current={d === selected ? 'page' : undefined}
                    onClick={() => navigate(domainsPath(d.id))}
                  >
                    <ListItemText primary={d.name} />
                  </ListItemButton>
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
        busy={create.isPending}
        onSubmit={(name) => create.mutate(name)}
        onClose={() => setCreating(false)}
      />
    </AdminPage>
  );
}

function DomainDetails({ domain, isAdmin }: { domain: Domain; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState(false);

  const rename = useMutation({
    mutationFn: (name: string) => adminApi.renameDomain(domain.id, name),
    onSuccess: async (_, name) => {
      toasts.success(`Domain renamed to ${name}.`, 'SUCCESS');
      setRenaming(false);
      await queryClient.invalidateQueries({ queryKey: DOMAINS_QUERY_KEY });
    },
    onError: (error) => showHttpError(error, 'Could not rename the domain'),
  });

  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const remove = useMutation({
    mutationFn: () => adminApi.deleteDomain(domain.id),
    onSuccess: async () => {
      toasts.success(`Domain ${domain.name} deleted.`, 'SUCCESS');
      setConfirmingDelete(false);
      // The domain's portals went with it: leave them if one was open, forget their lists.
      if (String(useSelectionStore.getState().domain?.id) === String(domain.id)) selectDomain(null);
      queryClient.removeQueries({ queryKey: ['portal', String(domain.id)] });
      queryClient.removeQueries({ queryKey: ['portals', String(domain.id)] });
      queryClient.removeQueries({ queryKey: ['portals-admin', String(domain.id)] });
      navigate(domainsPath(-1), { replace: true });
      await queryClient.invalidateQueries({ queryKey: DOMAINS_QUERY_KEY });
    },
    onError: (error) => showHttpError(error, 'Could not delete the domain'),
  });

  const logo = useMutation({
    mutationFn: (file: File | null) => (file ? adminApi.setLogo(domain.id, file) : adminApi.removeLogo(domain.id)),
    onSuccess: async (_, file) => {
      toasts.success(file ? 'Logo uploaded.' : 'Logo removed.', 'SUCCESS');
      await queryClient.invalidateQueries({ queryKey: DOMAINS_QUERY_KEY });
    },
    onError: (error) => showHttpError(error, 'Could not change the logo'),
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
            <Button variant="outlined" component="label" disabled={logo.isPending}>
              Upload Logo
              <input
                hidden
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                aria-label="Logo file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) logo.mutate(file);
                }}
              />
            </Button>
            {domain.hasLogo && (
              <Button variant="outlined" disabled={logo.isPending} onClick={() => logo.mutate(null)}>
                Remove Logo
              </Button>
            )}
            {isAdmin && (
              <Button
                variant="outlined"
                color="error"
                onClick={() => setConfirmingDelete(true)}
                disabled={remove.isPending}
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
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onClose={() => setConfirmingDelete(false)}
        />
      )}
      <NameDialog
        open={renaming}
        title="Rename Domain"
        label="Domain name"
        submitLabel="Rename"
        initialName={domain.name}
        busy={rename.isPending}
        onSubmit={(name) => rename.mutate(name)}
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
    queryKey: ['admin', 'domains', String(domain.id), 'portals'],
    queryFn: () => portalApi.list(domain.id),
    staleTime: 0,
  });
  const members = useMembers(domain.id);
  const groups = useQuery({ queryKey: adminKeys.groups(domain.id), queryFn: () => adminApi.groups(domain.id) });
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
        <Button variant="contained" color="error" onClick={onConfirm} disabled={!known || busy}>
          Delete Domain
        </Button>
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
    queryKey: adminKeys.members(domainId),
    queryFn: async (): Promise<MemberRow[]> => {
      const [members, info] = await Promise.all([adminApi.members(domainId), adminApi.membersInfo(domainId)]);
      const groupsOf = new Map(info.map((i) => [String(i.userId), (i.accountGroups ?? []).map((g) => g.groupName)]));
      return members.map((m) => ({ ...m, groups: groupsOf.get(String(m.id)) ?? [] }));
    },
  });
}

function Members({ domain, isAdmin }: { domain: Domain; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const members = useMembers(domain.id);
  const groups = useQuery({ queryKey: adminKeys.groups(domain.id), queryFn: () => adminApi.groups(domain.id) });
  const [adding, setAdding] = useState(false);

  const refresh = async (userId?: User['id']) => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.members(domain.id) });
    if (userId !== undefined) await queryClient.invalidateQueries({ queryKey: adminKeys.userRoles(userId) });
  };

  const removeMember = useMutation({
    mutationFn: (member: MemberRow) => adminApi.removeMember(domain.id, member.id),
    onSuccess: async (_, member) => {
      toasts.success(`${member.userName} removed from ${domain.name}.`, 'SUCCESS');
      await refresh(member.id);
    },
    onError: (error) => showHttpError(error, 'Could not remove the member'),
  });

  const assign = useMutation({
    mutationFn: (target: { member: MemberRow; group: string }) =>
      adminApi.addRole(target.member.id, domain.id, target.group),
    onSuccess: async (_, { member, group }) => {
      toasts.success(`${member.userName} added to ${group}.`, 'SUCCESS');
      await refresh(member.id);
    },
    onError: (error) => showHttpError(error, 'Could not assign the group'),
  });

  const unassign = useMutation({
    mutationFn: (target: { member: MemberRow; group: string }) =>
      adminApi.removeRole(target.member.id, domain.id, target.group),
    onSuccess: async (_, { member, group }) => {
      toasts.success(`${member.userName} removed from ${group}.`, 'SUCCESS');
      await refresh(member.id);
    },
    onError: (error) => showHttpError(error, 'Could not remove the group'),
  });

  async function confirmRemove(member: MemberRow) {
    if (await toasts.prompt(`Remove ${member.userName} from the domain ${domain.name}?`, { title: 'Remove Member' })) {
      removeMember.mutate(member);
    }
  }

  async function confirmUnassign(member: MemberRow, group: string) {
    if (await toasts.prompt(`Remove ${member.userName} from the group ${group}?`)) unassign.mutate({ member, group });
  }

  const groupNames = (groups.data ?? []).map((g) => g.groupName);
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            <Typography variant="h6" component="h3" sx={{ flex: 1 }}>
              Members
            </Typography>
            {isAdmin && (
              <Button variant="outlined" onClick={() => setAdding(true)}>
                Add Member
              </Button>
            )}
          </Stack>
          {members.isPending && <Loading label="Loading members" />}
          {members.isError && (
            <LoadError
              title="Could not load the members"
              error={members.error}
              onRetry={() => void members.refetch()}
            />
          )}
          {members.isSuccess && members.data.length === 0 && (
            <Typography color="text.secondary">This domain has no members yet.</Typography>
          )}
          {members.isSuccess && members.data.length > 0 && (
            <Table size="small" aria-label="Members">
              <TableHead>
                <TableRow>
                  <TableCell>User name</TableCell>
                  <TableCell>Name</TableCell>
                  <TableCell>Groups</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {members.data.map((member) => {
                  const assignable = groupNames.filter((g) => !member.groups.includes(g));
                  return (
                    <TableRow key={String(member.id)}>
                      <TableCell>{member.userName}</TableCell>
                      <TableCell>
                        {fullName({
                          firstName: member.firstName ?? '',
                          middleName: member.middleName,
                          lastName: member.lastName ?? '',
                        })}
                      </TableCell>
                      <TableCell>
                        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                          {member.groups.map((group) => (
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
                          ))}
                        </Stack>
                      </TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
                          {assignable.length > 0 && (
                            <TextField
                              select
                              size="small"
                              label={`Add group for ${member.userName}`}
                              value=""
                              onChange={(e) => assign.mutate({ member, group: e.target.value })}
                              disabled={assign.isPending}
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
                            aria-label={`Remove ${member.userName} from the domain`}
                          >
                            Remove
                          </Button>
                        </Stack>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </Stack>
      </CardContent>
      {isAdmin && (
        <AddMemberDialog
          open={adding}
          domain={domain}
          members={members.data ?? []}
          groups={groupNames}
          onClose={() => setAdding(false)}
          onAdded={(userId) => {
            setAdding(false);
            void refresh(userId);
          }}
        />
      )}
    </Card>
  );
}

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
  const users = useQuery({ queryKey: adminKeys.users, queryFn: adminApi.users, enabled: open });
  const [userId, setUserId] = useState('');
  const [group, setGroup] = useState('');
  const memberIds = new Set(members.map((m) => String(m.id)));
  const candidates = (users.data ?? []).filter((u) => !memberIds.has(String(u.id)));

  const add = useMutation({
    mutationFn: async () => {
      await adminApi.addMember(domain.id, userId);
      if (group) await adminApi.addRole(userId, domain.id, group);
    },
    onSuccess: () => {
      const user = candidates.find((u) => String(u.id) === userId);
      toasts.success(`${user?.userName ?? 'User'} added to ${domain.name}${group ? ` (${group})` : ''}.`, 'SUCCESS');
      setUserId('');
      setGroup('');
      onAdded(userId);
    },
    onError: (error) => showHttpError(error, 'Could not add the member'),
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!userId || add.isPending) return;
    add.mutate();
  }

  return (
    <Dialog open={open} onClose={() => !add.isPending && onClose()} fullWidth maxWidth="xs">
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
                      {fullName(u) ? ` (${fullName(u)})` : ''}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  label="Group (optional)"
                  size="small"
                  value={group}
                  onChange={(e) => setGroup(e.target.value)}
                  disabled={groups.length === 0}
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
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!userId || add.isPending}>
            Add
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------
// Permission groups

function Groups({ domain }: { domain: Domain }) {
  const queryClient = useQueryClient();
  const groups = useQuery({ queryKey: adminKeys.groups(domain.id), queryFn: () => adminApi.groups(domain.id) });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<PermissionGroup | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.groups(domain.id) }),
      queryClient.invalidateQueries({ queryKey: adminKeys.members(domain.id) }),
    ]);

  const create = useMutation({
    mutationFn: (body: { groupName: string; permissions: string[] }) =>
      adminApi.createGroup(domain.id, body.groupName, body.permissions),
    onSuccess: async (_, body) => {
      toasts.success(`Group ${body.groupName} created.`, 'SUCCESS');
      setCreating(false);
      await refresh();
    },
    onError: (error) => showHttpError(error, 'Could not create the group'),
  });

  const update = useMutation({
    mutationFn: (body: { groupName: string; permissions: string[] }) =>
      adminApi.updatePermissions(domain.id, body.groupName, body.permissions),
    onSuccess: async (_, body) => {
      toasts.success(`Permissions of ${body.groupName} saved.`, 'SUCCESS');
      setEditing(null);
      await refresh();
    },
    onError: (error) => showHttpError(error, 'Could not save the permissions'),
  });

  const remove = useMutation({
    mutationFn: (groupName: string) => adminApi.deleteGroup(domain.id, groupName),
    onSuccess: async (_, groupName) => {
      toasts.success(`Group ${groupName} deleted.`, 'SUCCESS');
      await refresh();
    },
    onError: (error) => showHttpError(error, 'Could not delete the group'),
  });

  async function confirmDelete(groupName: string) {
    const question = `Delete the group ${groupName}? Its members lose its permissions.`;
    if (await toasts.prompt(question, { title: 'Delete Group' })) remove.mutate(groupName);
  }

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
          {groups.isPending && <Loading label="Loading groups" />}
          {groups.isError && (
            <LoadError title="Could not load the groups" error={groups.error} onRetry={() => void groups.refetch()} />
          )}
          {groups.isSuccess && groups.data.length === 0 && (
            <Typography color="text.secondary">This domain has no groups yet.</Typography>
          )}
          {groups.isSuccess && groups.data.length > 0 && (
            <Table size="small" aria-label="Permission groups">
              <TableHead>
                <TableRow>
                  <TableCell>Group</TableCell>
                  <TableCell>Permissions</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {groups.data.map((group) => (
                  <TableRow key={group.groupName}>
                    <TableCell>{group.groupName}</TableCell>
                    <TableCell>
                      <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                        {(group.permissions ?? []).join(', ') || 'none'}
                      </Typography>
                    </TableCell>
                    <TableCell align="right">
                      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                        <Button
                          size="small"
                          onClick={() => setEditing(group)}
                          aria-label={`Edit permissions of ${group.groupName}`}
                        >
                          Edit Permissions
                        </Button>
                        <Button
                          size="small"
                          color="error"
                          onClick={() => void confirmDelete(group.groupName)}
                          aria-label={`Delete group ${group.groupName}`}
                        >
                          Delete
                        </Button>
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Stack>
      </CardContent>
      <GroupDialog
        open={creating}
        busy={create.isPending}
        onSubmit={(groupName, permissions) => create.mutate({ groupName, permissions })}
        onClose={() => setCreating(false)}
      />
      <GroupDialog
        open={!!editing}
        group={editing ? { groupName: editing.groupName, permissions: editing.permissions ?? [] } : undefined}
        busy={update.isPending}
        onSubmit={(groupName, permissions) => update.mutate({ groupName, permissions })}
        onClose={() => setEditing(null)}
      />
    </Card>
  );
}
