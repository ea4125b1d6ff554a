import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { User } from '../../api/types';
import { userApi, userKeys } from '../../api/user';
import { fullName, useSessionStore } from '../../core/sessionStore';
import { toasts } from '../../core/toastService';
import { formatDateTime } from '../../lib/format';
import { PendingButton } from '../../ui/ConfirmDialog';
import { FormDialog } from '../../ui/FormDialog';
import { useAction } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { forceResetMessage, userFormOf, userUpdateOf } from './model';
import { UserFields } from './UserFields';
import { UserRoles } from './UserRoles';
import { emailSchema, userSchema, type UserFormValues } from './validation';

/** One user: the details form (Save, Send E-mail, Force Reset Password, Delete) and the roles per domain. */
export function UserDetails({ user, onDeleted }: { user: User; onDeleted: () => void }) {
  const [emailOpen, setEmailOpen] = useState(false);
  // The server refuses deleting oneself and changing one's own admin flag: not offered.
  const isSelf = useSessionStore((s) => s.user !== null && String(s.user.id) === String(user.id));
  const form = useForm<UserFormValues, unknown, UserFormValues>({
    resolver: zodResolver(userSchema),
    defaultValues: userFormOf(user),
    mode: 'all',
  });

  const update = useAction({
    action: (values: UserFormValues) => userApi.update(userUpdateOf(user, values)),
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
    success: forceResetMessage(user),
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
