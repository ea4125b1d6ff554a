import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import type { User } from '../../api/types';
import { applyProfileUpdate } from '../../app/session/session';
import { toasts } from '../../app/toasts/toastService';
import { PROFILE_MESSAGES, profileApi, updateBody } from './profileApi';

/** User Preferences: 'Opt out of email notifications'; Save only when changed (PUT user/update). */
export function PreferencesTab({ user }: { user: User }) {
  const saved = !!user.optOutNotification;
  const [optOut, setOptOut] = useState(saved);
  const [busy, setBusy] = useState(false);
  const dirty = optOut !== saved;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!dirty || busy) return;
    setBusy(true);
    try {
      const updated = await profileApi.update(updateBody(user, { optOutNotification: optOut }));
      applyProfileUpdate(
        updated && typeof updated === 'object' && 'id' in updated ? updated : { ...user, optOutNotification: optOut },
      );
      toasts.success(PROFILE_MESSAGES.updated);
    } catch (cause) {
      toasts.danger(toApiError(cause).errorMessage, PROFILE_MESSAGES.updateFailed);
    } finally {
      setBusy(false);
    }
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
