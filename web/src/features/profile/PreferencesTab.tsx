import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { useState, type FormEvent } from 'react';
import type { User } from '../../api/types';
import { applyProfileUpdate } from '../../core/session';
import { useAction } from '../../ui/useAction';
import { userApi } from '../../api/user';
import { PROFILE_MESSAGES, updateBody } from './profileApi';

/** User Preferences: 'Opt out of email notifications'; Save only when changed (PUT user/update). */
export function PreferencesTab({ user }: { user: User }) {
  const saved = !!user.optOutNotification;
  const [optOut, setOptOut] = useState(saved);
  const dirty = optOut !== saved;
  const update = useAction({
    action: (value: boolean) => userApi.update(updateBody(user, { optOutNotification: value })),
    success: PROFILE_MESSAGES.updated,
    successTitle: null,
    failure: PROFILE_MESSAGES.updateFailed,
    onSuccess: (updated, value) =>
      applyProfileUpdate(
        updated && typeof updated === 'object' && 'id' in updated ? updated : { ...user, optOutNotification: value },
      ),
  });
  const busy = update.pending;

  function save(event: FormEvent) {
    event.preventDefault();
    if (dirty) update.run(optOut);
  }

  return (
    <Stack component="form" noValidate onSubmit={save} aria-label="User Preferences" spacing={2}>
      <FormControlLabel
        control={<Checkbox checked={optOut} onChange={(e) => setOptOut(e.target.checked)} />}
        label="Opt out of email notifications"
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={!dirty || busy}>
          Save
        </Button>
      </Stack>
    </Stack>
  );
}
