import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { User } from '../../api/types';
import { userApi, userKeys, type NewUser } from '../../api/user';
import { paths } from '../../core/paths';
import { fullName } from '../../core/sessionStore';
import { formatDateTime } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { FormDialog } from '../../ui/FormDialog';
import { PageFrame } from '../../ui/PageFrame';
import { useAction } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { AdminOnly } from './AdminPage';
import { newUserOf, noUserText, selectedUser } from './model';
import { UserDetails } from './UserDetails';
import { UserFields } from './UserFields';
import { newUserSchema } from './validation';

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
  const selected = selectedUser(users.data, userId);

  const create = useAction({
    action: (values: NewUser) => userApi.create(newUserOf(values)),
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
                {noUserText(userId)}
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
