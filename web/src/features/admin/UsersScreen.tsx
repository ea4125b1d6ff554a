import CancelIcon from '@mui/icons-material/Cancel';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { User } from '../../api/types';
import { useDomains } from '../../app/selection/useDomains';
import { fullName } from '../../app/session/sessionStore';
import { showHttpError, toasts } from '../../app/toasts/toastService';
import { adminApi, adminKeys, type NewUser } from './api';
import { AdminOnly, AdminPage, LoadError, Loading } from './AdminPage';
import { UserFields, type Touched } from './UserFields';
import {
  formatDateTime,
  hasErrors,
  requiredError,
  usernameError,
  validateUserForm,
  type UserFormValues,
} from './validation';

const usersPath = (id: User['id'] | -1) => `/admin/users/${id}`;

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
  const users = useQuery({ queryKey: adminKeys.users, queryFn: adminApi.users });
  const [creating, setCreating] = useState(false);
  const selected = users.data?.find((u) => String(u.id) === userId) ?? null;

  return (
    <AdminPage
      title="Users"
      actions={
        <Button variant="contained" onClick={() => setCreating(true)}>
          Create User
        </Button>
      }
    >
      {users.isPending && <Loading label="Loading users" />}
      {users.isError && (
        <LoadError title="Could not load the users" error={users.error} onRetry={() => void users.refetch()} />
      )}
      {users.isSuccess && (
        <Stack direction={{ xs: 'column', lg: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ flex: 3, minWidth: 0, width: '100%' }}>
            <UserTable users={users.data} selectedId={selected?.id} onOpen={(u) => navigate(usersPath(u.id))} />
          </Box>
          <Box sx={{ flex: 2, minWidth: 0, width: '100%' }}>
            {selected ? (
              <UserDetails key={String(selected.id)} user={selected} onDeleted={() => navigate(usersPath(-1))} />
            ) : (
              <Typography color="text.secondary" sx={{ p: 2 }}>
                {userId === '-1' || userId === '0' ? 'Select a user to see the details.' : 'No such user.'}
              </Typography>
            )}
          </Box>
        </Stack>
      )}
      <CreateUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(user) => {
          setCreating(false);
          navigate(usersPath(user.id));
        }}
      />
    </AdminPage>
  );
}

function UserTable({
  users,
  selectedId,
  onOpen,
}: {
  users: User[];
  selectedId: User['id'] | undefined;
  onOpen: (user: User) => void;
}) {
  if (users.length === 0) return <Typography>No users.</Typography>;
  return (
    <TableContainer component={Card} variant="outlined">
      <Table size="small" aria-label="Users">
        <TableHead>
          <TableRow>
            <TableCell>User name</TableCell>
            <TableCell>Name</TableCell>
            <TableCell>E-mail</TableCell>
            <TableCell>Admin</TableCell>
            <TableCell>Last logged in</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {users.map((user) => {
            const isSelected = selectedId !== undefined && String(selectedId) === String(user.id);
            return (
              <TableRow
                key={String(user.id)}
                hover
                selected={isSelected}
                aria-selected={isSelected}
                onClick={() => onOpen(user)}
                sx={{ cursor: 'pointer' }}
              >
                <TableCell>
                  <Button
                    size="small"
                    sx={{ textTransform: 'none', p: 0, minWidth: 0 }}
                    onClick={(e) => {
                      e.stopPropagation();
                      onOpen(user);
                    }}
                  >
                    {user.userName}
                  </Button>
                </TableCell>
                <TableCell>{fullName(user)}</TableCell>
                <TableCell>{user.email}</TableCell>
                <TableCell>{user.admin ? 'Yes' : 'No'}</TableCell>
                <TableCell>{formatDateTime(user.lastLoggedIn)}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

// ---------------------------------------------------------------------------
// Create

const emptyNewUser: NewUser = { userName: '', firstName: '', middleName: '', lastName: '', email: '', admin: false };

function CreateUserDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (user: User) => void;
}) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<NewUser>(emptyNewUser);
  const [touched, setTouched] = useState<Touched<NewUser>>({});
  const errors = {
    ...validateUserForm(values),
    ...(usernameError(values.userName) ? { userName: usernameError(values.userName) } : {}),
  };
  const invalid = hasErrors(errors);

  const create = useMutation({
    mutationFn: () => adminApi.createUser({ ...values, userName: values.userName.trim(), email: values.email.trim() }),
    onSuccess: async (user) => {
      toasts.success(`User created. A one-time password was e-mailed to ${values.email.trim()}.`, 'SUCCESS');
      setValues(emptyNewUser);
      setTouched({});
      await queryClient.invalidateQueries({ queryKey: adminKeys.users });
      onCreated(user);
    },
    onError: (error) => showHttpError(error, 'Could not create the user'),
  });

  function close() {
    if (create.isPending) return;
    setValues(emptyNewUser);
    setTouched({});
    onClose();
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (invalid || create.isPending) return;
    create.mutate();
  }

  const userNameError = touched.userName ? errors.userName : undefined;
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm">
      <form noValidate onSubmit={handleSubmit}>
        <DialogTitle>Create User</DialogTitle>
        <DialogContent>
          <Stack spacing={1} sx={{ pt: 1 }}>
            <TextField
              label="Username"
              name="userName"
              required
              autoFocus
              size="small"
              value={values.userName}
              onChange={(e) => setValues({ ...values, userName: e.target.value })}
              onBlur={() => setTouched((t) => ({ ...t, userName: true }))}
              error={!!userNameError}
              helperText={userNameError ?? ' '}
              fullWidth
            />
            <UserFields
              values={values}
              errors={errors}
              touched={touched}
              onChange={(v) => setValues({ ...values, ...v })}
              onBlur={(field) => setTouched((t) => ({ ...t, [field]: true }))}
            />
            <Typography variant="body2" color="text.secondary">
              The user receives a one-time password by e-mail and chooses their own password at the first sign-in.
            </Typography>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={invalid || create.isPending}>
            {create.isPending ? 'Creating' : 'Create'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
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
  const queryClient = useQueryClient();
  const initial = formOf(user);
  const [values, setValues] = useState<UserFormValues>(initial);
  const [touched, setTouched] = useState<Touched<UserFormValues>>({});
  const [emailOpen, setEmailOpen] = useState(false);
  const errors = validateUserForm(values);
  const invalid = hasErrors(errors);
  const dirty = (Object.keys(initial) as Array<keyof UserFormValues>).some((k) => initial[k] !== values[k]);

  const update = useMutation({
    mutationFn: () =>
      adminApi.updateUser({
        id: user.id,
        firstName: values.firstName.trim(),
        middleName: values.middleName.trim(),
        lastName: values.lastName.trim(),
        email: values.email.trim(),
        admin: values.admin,
        optOutNotification: user.optOutNotification,
      }),
    onSuccess: async () => {
      toasts.success('User updated.', 'SUCCESS');
      setTouched({});
      await queryClient.invalidateQueries({ queryKey: adminKeys.users });
    },
    onError: (error) => showHttpError(error, 'Could not update the user'),
  });

  const remove = useMutation({
    mutationFn: () => adminApi.deleteUser(user.id),
    onSuccess: async () => {
      toasts.success(`User ${user.userName} deleted.`, 'SUCCESS');
      onDeleted();
      await queryClient.invalidateQueries({ queryKey: adminKeys.users });
    },
    onError: (error) => showHttpError(error, 'Could not delete the user'),
  });

  const forceReset = useMutation({
    mutationFn: () => adminApi.forceResetPassword(user.id),
    onSuccess: () =>
      toasts.success(
        user.email
          ? `Password reset. A new one-time password was e-mailed to ${user.email}.`
          : 'Password reset. A new one-time password was put in the mail outbox.',
        'SUCCESS',
      ),
    onError: (error) => showHttpError(error, 'Could not reset the password'),
  });

  async function confirmDelete() {
    if (await toasts.prompt(`Delete the user ${user.userName}? This cannot be undone.`, { title: 'Delete User' })) {
      remove.mutate();
    }
  }

  async function confirmForceReset() {
    const question = `Force a password reset for ${user.userName}? Their sessions end and a new one-time password is e-mailed.`;
    if (await toasts.prompt(question, { title: 'Force Reset Password' })) forceReset.mutate();
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (invalid || !dirty || update.isPending) return;
    update.mutate();
  }

  const busy = update.isPending || remove.isPending || forceReset.isPending;
  return (
    <Stack spacing={2}>
      <Card variant="outlined">
        <CardContent>
          <Stack component="form" noValidate spacing={1} onSubmit={handleSubmit} aria-label="User details">
            <Typography variant="h6" component="h2">
              {user.userName}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Last logged in: {formatDateTime(user.lastLoggedIn) || 'never'}
            </Typography>
            <UserFields
              values={values}
              errors={errors}
              touched={{ ...touched, firstName: true, lastName: true, email: true }}
              compact
              onChange={setValues}
              onBlur={(field) => setTouched((t) => ({ ...t, [field]: true }))}
            />
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <Button type="submit" variant="contained" disabled={invalid || !dirty || busy}>
                Save
              </Button>
              <Button variant="outlined" onClick={() => setEmailOpen(true)} disabled={busy}>
                Send E-mail
              </Button>
              <Button variant="outlined" onClick={() => void confirmForceReset()} disabled={busy}>
                Force Reset Password
              </Button>
              <Button variant="outlined" color="error" onClick={() => void confirmDelete()} disabled={busy}>
                Delete
              </Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      <UserRoles user={user} />
      <SendEmailDialog user={user} open={emailOpen} onClose={() => setEmailOpen(false)} />
    </Stack>
  );
}

// ---------------------------------------------------------------------------
// Send e-mail

function SendEmailDialog({ user, open, onClose }: { user: User; open: boolean; onClose: () => void }) {
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState<{ subject?: boolean; message?: boolean }>({});
  const subjectError = requiredError(subject);
  const messageError = requiredError(message);
  const invalid = !!subjectError || !!messageError;

  const send = useMutation({
    mutationFn: () => adminApi.sendEmail({ userIds: [user.id], subject: subject.trim(), message }),
    onSuccess: () => {
      toasts.success(`E-mail sent to ${user.userName}.`, 'SUCCESS');
      reset();
      onClose();
    },
    onError: (error) => showHttpError(error, 'Could not send the e-mail'),
  });

  function reset() {
    setSubject('');
    setMessage('');
    setTouched({});
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (invalid || send.isPending) return;
    send.mutate();
  }

  return (
    <Dialog
      open={open}
      onClose={() => {
        if (send.isPending) return;
        reset();
        onClose();
      }}
      fullWidth
      maxWidth="sm"
    >
      <form noValidate onSubmit={handleSubmit}>
        <DialogTitle>Send E-mail</DialogTitle>
        <DialogContent>
          <Stack spacing={1} sx={{ pt: 1 }}>
            <Typography variant="body2">
              To {fullName(user) || user.userName}
              {user.email ? ` <${user.email}>` : ''}
            </Typography>
            <TextField
              label="Subject"
              required
              size="small"
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
              onBlur={() => setTouched((t) => ({ ...t, subject: true }))}
              error={!!touched.subject && !!subjectError}
              helperText={(touched.subject && subjectError) || ' '}
              fullWidth
            />
            <TextField
              label="Message"
              required
              multiline
              minRows={4}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              onBlur={() => setTouched((t) => ({ ...t, message: true }))}
              error={!!touched.message && !!messageError}
              helperText={(touched.message && messageError) || ' '}
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              reset();
              onClose();
            }}
            disabled={send.isPending}
          >
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={invalid || send.isPending}>
            {send.isPending ? 'Sending' : 'Send'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

// ---------------------------------------------------------------------------
// Roles per domain

function UserRoles({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const roles = useQuery({ queryKey: adminKeys.userRoles(user.id), queryFn: () => adminApi.userRoles(user.id) });
  const domains = useDomains();
  const [domainId, setDomainId] = useState('');
  const [role, setRole] = useState('');
  const groups = useQuery({
    queryKey: adminKeys.groups(domainId),
    queryFn: () => adminApi.groups(domainId),
    enabled: domainId !== '',
  });

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.userRoles(user.id) }),
      queryClient.invalidateQueries({ queryKey: adminKeys.members(domainId) }),
    ]);

  const add = useMutation({
    mutationFn: () => adminApi.addRole(user.id, domainId, role),
    onSuccess: async () => {
      toasts.success(`Role ${role} added.`, 'SUCCESS');
      setRole('');
      await refresh();
    },
    onError: (error) => showHttpError(error, 'Could not add the role'),
  });

  const remove = useMutation({
    mutationFn: (target: { domainId: string | number; role: string }) =>
      adminApi.removeRole(user.id, target.domainId, target.role),
    onSuccess: async (_, target) => {
      toasts.success(`Role ${target.role} removed.`, 'SUCCESS');
      await queryClient.invalidateQueries({ queryKey: adminKeys.userRoles(user.id) });
      await queryClient.invalidateQueries({ queryKey: adminKeys.members(target.domainId) });
    },
    onError: (error) => showHttpError(error, 'Could not remove the role'),
  });

  async function confirmRemove(target: { domainId: string | number; domainName: string; role: string }) {
    if (await toasts.prompt(`Remove the role ${target.role} in ${target.domainName} from ${user.userName}?`)) {
      remove.mutate(target);
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
              onClick={() => add.mutate()}
              disabled={!domainId || !role || add.isPending}
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
