import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { domainApi, domainKeys } from '../../api/domain';
import { permissionsApi } from '../../api/permissions';
import type { Domain, User } from '../../api/types';
import { PendingButton } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { useAction } from '../../ui/useAction';
import { candidateLabel, candidatesOf, memberAddedMessage, type MemberRow } from './model';

/**
 * Adds a user to the domain, with a group for admins. The choices are GET domain/{id}/candidates
 * (everyone for admins; for holders of domain_user_create, the users they may add).
 */
export function AddMemberDialog({
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
  const candidates = candidatesOf(users.data ?? [], members);

  const add = useAction({
    action: async (target: { userId: string; group: string }) => {
      await domainApi.addMember(domain.id, target.userId);
      if (target.group) await permissionsApi.addRole(target.userId, domain.id, target.group);
    },
    success: (_, target) => memberAddedMessage(candidates, target, domain.name),
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
                      {candidateLabel(u)}
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
