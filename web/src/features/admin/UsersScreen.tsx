import { zodResolver } from '@hookform/resolvers/zod';
import CancelIcon from '@mui/icons-material/Cancel';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { domainKeys } from '../../api/domain';
import { permissionKeys, permissionsApi } from '../../api/permissions';
import type { User } from '../../api/types';
import { userApi, userKeys, type NewUser } from '../../api/user';
import { paths } from '../../app/paths';
import { useDomains } from '../../app/selection/useDomains';
import { fullName, useSessionStore } from '../../app/session/sessionStore';
import { toasts } from '../../app/toasts/toastService';
import { PendingButton } from '../../ui/ConfirmDialog';
import { DataTable, type Column } from '../../ui/DataTable';
import { FormDialog } from '../../ui/FormDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { useAction } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { AdminOnly } from './AdminPage';
import { UserFields } from './UserFields';
import { formatDateTime } from '../../lib/format';
import { emailSchema, newUserSchema, userSchema, type UserFormValues } from './validation';

const usersPath = paths.adminUsers;

/**
 * Users (spec 1 §2.1 admin/users/{userId}): the list of users is always shown;
 * the user of the URL (any id; -1 or 0 for none) is shown beside it.
 */
export default function UsersScreen() {
  return (
    <AdminOnly>
      <UsersScreenContent />
    </AdminOnly>
  );
}

function UsersScreenContent() {
  const { userId = '-1' } = useParams();
  const navigate = useNavigate();
  const users = useQuery({ queryKey: userKeys.list, queryFn: userApi.list });
  const [creating, setCreating] = useState(false);
  const selected = users.data?.find((u) => String(u.id) === userId) ?? null;

  const create = useAction({
    action: (values: NewUser) =>
      userApi.create({ ...values, userName: values.userName.trim(), email: values.email.trim() }),
    success: (_, values) => `User created. A one-time password was e-mailed to ${values.email.trim()}.`,
    failure: 'Could not create the user',
    invalidate: [userKeys.list],
    onSuccess: (user) => {
      setCreating(false);
      void navigate(usersPath(user.id));
    },
  });

  const columns: Array<Column<User>> = [
    {
      id: 'userName',
      header: 'User name',
      rowHeader: true,
      sortValue: (u) => u.userName,
      cell: (u) => (
        <Button
          size="small"
          sx={{ textTransform: 'none', p: 0, minWidth: 0 }}
          onClick={(e) => {
            e.stopPropagation();
            void navigate(usersPath(u.id));
          }}
        >
          {u.userName}
        </Button>
      ),
    },
    { id: 'name', header: 'Name', cell: (u) => fullName(u), sortValue: (u) => `${u.lastName} ${u.firstName}` },
    { id: 'email', header: 'E-mail', cell: (u) => u.email, sortValue: (u) => u.email },
    { id: 'admin', header: 'Admin', cell: (u) => (u.admin ? 'Yes' : 'No'), sortValue: (u) => (u.admin ? 0 : 1) },
    {
      id: 'lastLoggedIn',
      header: 'Last logged in',
      cell: (u) => formatDateTime(u.lastLoggedIn),
      sortValue: (u) => u.lastLoggedIn ?? '',
    },
  ];

  return (
    <PageFrame
      title="Users"
      actions={
        <Button variant="contained" onClick={() => setCreating(true)}>
          Create User
        </Button>
      }
    >
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 3, minWidth: 0, width: '100%' }}>
          <DataTable
            label="Users"
            columns={columns}
            rows={users.data}
            rowKey={(u) => String(u.id)}
            loading={users.isPending}
            loadingText="Loading users"
            error={users.error}
            errorTitle="Could not load the users"
            onRetry={() => void users.refetch()}
            emptyText="No users."
            initialSort={{ column: 'userName' }}
            onRowClick={(u) => void navigate(usersPath(u.id))}
            selectedKey={selected ? String(selected.id) : null}
          />
        </Box>
        {users.isSuccess && (
          <Box sx={{ flex: 2, minWidth: 0, width: '100%' }}>
            {selected ? (
              <UserDetails key={String(selected.id)} user={selected} onDeleted={() => void navigate(usersPath(-1))} />
            ) : (
              <Typography color="text.secondary" sx={{ p: 2 }}>
                {userId === '-1' || userId === '0' ? 'Select a user to see the details.' : 'No such user.'}
              </Typography>
            )}
          </Box>
        )}
      </Stack>
      <FormDialog
        open={creating}
        title="Create User"
        schema={newUserSchema}
        defaultValues={{ userName: '', firstName: '', middleName: '', lastName: '', email: '', admin: false }}
        submitLabel="Create"
        onSubmit={create.submit}
        onClose={() => setCreating(false)}
      >
        {(form) => (
          <>
            <ValidatedTextField name="userName" control={form.control} label="Username" required autoFocus />
            <UserFields control={form.control} />
            <Typography variant="body2" color="text.secondary">
              The user receives a one-time password by e-mail and chooses their own password at the first sign-in.
            </Typography>
          </>
        )}
      </FormDialog>
    </PageFrame>
  );
}

// ---------------------------------------------------------------------------
// Details

const formOf = (user: User): UserFormValues => ({
  firstName: user.firstName ?? '',
  middleName: user.middleName ?? '',
  lastName: user.lastName ?? '',
  email: user.email ?? '',
  admin: !!user.admin,
});

function UserDetails({ user, onDeleted }: { user: User; onDeleted: () => void }) {
  const [emailOpen, setEmailOpen] = useState(false);
  // The server refuses deleting oneself and changing one's own admin flag: not offered.
  const isSelf = useSessionStore((s) => s.user !== null && String(s.user.id) === String(user.id));
  const form = useForm<UserFormValues, unknown, UserFormValues>({
    resolver: zodResolver(userSchema),
    defaultValues: formOf(user),
    mode: 'all',
  });

  const update = useAction({
    action: (values: UserFormValues) =>
      userApi.update({
        id: user.id,
        firstName: values.firstName.trim(),
        middleName: values.middleName.trim(),
        lastName: values.lastName.trim(),
        email: values.email.trim(),
        admin: values.admin,
        optOutNotification: user.optOutNotification,
      }),
    success: 'User updated.',
    failure: 'Could not update the user',
    invalidate: [userKeys.list],
    onSuccess: (_, values) => form.reset(values),
  });

  const remove = useAction({
    action: () => userApi.remove(user.id),
    success: `User ${user.userName} deleted.`,
    failure: 'Could not delete the user',
    invalidate: [userKeys.list],
    onSuccess: onDeleted,
  });

  const forceReset = useAction({
    action: () => userApi.forceResetPassword(user.id),
    success: user.email
      ? `Password reset. A new one-time password was e-mailed to ${user.email}.`
      : 'Password reset. A new one-time password was put in the mail outbox.',
    failure: 'Could not reset the password',
  });

  const sendEmail = useAction({
    action: (values: { subject: string; message: string }) =>
      userApi.sendEmail({ userIds: [user.id], subject: values.subject.trim(), message: values.message }),
    success: `E-mail sent to ${user.userName}.`,
    failure: 'Could not send the e-mail',
  });

  async function confirmDelete() {
    if (await toasts.prompt(`Delete the user ${user.userName}? This cannot be undone.`, { title: 'Delete User' })) {
      remove.run();
    }
  }

  async function confirmForceReset() {
    const question = `Force a password reset for ${user.userName}? Their sessions end and a new one-time password is e-mailed.`;
    if (await toasts.prompt(question, { title: 'Force Reset Password' })) forceReset.run();
  }

  const busy = update.pending || remove.pending || forceReset.pending;
  const { isValid, isDirty } = form.formState;
  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Stack
            component="form"
            noValidate
            spacing={1}
            onSubmit={(e) => void form.handleSubmit((values) => update.run(values))(e)}
            aria-label="User details"
          >
            <Typography variant="h6" component="h2">
              {user.userName}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Last logged in: {formatDateTime(user.lastLoggedIn) || 'never'}
            </Typography>
            <UserFields control={form.control} compact showErrorsEarly adminLocked={isSelf} />
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <PendingButton type="submit" pending={update.pending} disabled={!isValid || !isDirty || busy}>
                Save
              </PendingButton>
              <Button variant="outlined" onClick={() => setEmailOpen(true)} disabled={busy}>
                Send E-mail
              </Button>
              <Button variant="outlined" onClick={() => void confirmForceReset()} disabled={busy}>
                Force Reset Password
              </Button>
              {!isSelf && (
                <Button variant="outlined" color="error" onClick={() => void confirmDelete()} disabled={busy}>
                  Delete
                </Button>
              )}
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      <UserRoles user={user} />
      <FormDialog
        open={emailOpen}
        title="Send E-mail"
        schema={emailSchema}
        defaultValues={{ subject: '', message: '' }}
        submitLabel="Send"
        onSubmit={sendEmail.submit}
        onClose={() => setEmailOpen(false)}
      >
        {(emailForm) => (
          <>
            <Typography variant="body2">
              To {fullName(user) || user.userName}
              {user.email ? ` <${user.email}>` : ''}
            </Typography>
            <ValidatedTextField name="subject" control={emailForm.control} label="Subject" required />
            <ValidatedTextField
              name="message"
              control={emailForm.control}
              label="Message"
              required
              multiline
              minRows={4}
              size="medium"
            />
          </>
        )}
      </FormDialog>
    </Stack>
  );
}

// ---------------------------------------------------------------------------
// Roles per domain

function UserRoles({ user }: { user: User }) {
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

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Domain roles
          </Typography>
          {roles.isPending && <Loading label="Loading roles" />}
          {roles.isError && (
            <LoadError title="Could not load the roles" error={roles.error} onRetry={() => void roles.refetch()} />
          )}
          {roles.isSuccess && roles.data.length === 0 && (
            <Typography color="text.secondary">No roles in any domain.</Typography>
          )}
          {roles.isSuccess && roles.data.length > 0 && (
            <Table size="small" aria-label="Domain roles">
              <TableHead>
                <TableRow>
                  <TableCell>Domain</TableCell>
                  <TableCell>Roles</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {roles.data.map((entry) => (
                  <TableRow key={String(entry.domainId)}>
                    <TableCell>{entry.domainName}</TableCell>
                    <TableCell>
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
                            onDelete={() =>
                              void confirmRemove({ domainId: entry.domainId, domainName: entry.domainName, role: r })
                            }
                            deleteIcon={
                              <CancelIcon
                                role="button"
                                aria-hidden={false}
                                aria-label={`Remove role ${r} in ${entry.domainName}`}
                              />
                            }
                          />
                        ))}
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
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
