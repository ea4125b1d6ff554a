import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import { preferenceApi, preferenceKeys, type Preference } from '../../api/preference';
import { isBannerOn } from '../../core/banner';
import { showHttpError } from '../../core/toastService';
import { AdminOnly } from './AdminPage';
import { PageFrame } from '../../ui/PageFrame';
import { LoadError, Loading } from '../../ui/Loading';
import { PendingButton } from '../../ui/ConfirmDialog';
import { ActionFailure, useAction } from '../../ui/useAction';
import { ADMIN_MESSAGES, BANNER_MESSAGE_MAX } from './validation';

/** System Preferences (spec 1 §2.1 admin/preferences, §4.3): the system banner. */
export default function PreferencesScreen() {
  return (
    <AdminOnly>
      <PreferencesScreenContent />
    </AdminOnly>
  );
}

function PreferencesScreenContent() {
  const query = useQuery({ queryKey: preferenceKeys.all, queryFn: preferenceApi.list });
  const preference = query.data?.[0];

  return (
    <PageFrame title="System Preferences" intro="The banner is shown to every signed-in user under the header.">
      {query.isPending && <Loading label="Loading preferences" />}
      {query.isError && (
        <LoadError title="Could not load the preferences" error={query.error} onRetry={() => void query.refetch()} />
      )}
      {query.isSuccess && !preference && <Alert severity="warning">The server holds no preferences.</Alert>}
      {/* Keyed by the loaded values so a refetch after saving resets the form. */}
      {preference && (
        <BannerForm
          key={`${preference.id}:${preference.bannerStatus}:${preference.bannerMessage}`}
          preference={preference}
        />
      )}
    </PageFrame>
  );
}

function BannerForm({ preference }: { preference: Preference }) {
  const initialOn = isBannerOn(preference.bannerStatus);
  const initialMessage = preference.bannerMessage ?? '';
  const [on, setOn] = useState(initialOn);
  const [message, setMessage] = useState(initialMessage);
  const [serverError, setServerError] = useState<string | null>(null);

  const tooLong = message.length > BANNER_MESSAGE_MAX;
  const dirty = on !== initialOn || message !== initialMessage;

  const save = useAction({
    action: () =>
      preferenceApi.update({
        id: preference.id,
        bannerStatus: on ? 'BANNER_ON' : 'BANNER_OFF',
        bannerMessage: message,
      }),
    success: 'Preferences saved.',
    failure: 'Could not save the preferences',
    invalidate: [preferenceKeys.all],
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (tooLong || !dirty) return;
    save.submit().then(
      () => setServerError(null),
      (failure: unknown) => {
        if (!(failure instanceof ActionFailure)) return;
        // A refused value is told in the form; anything else as a toast.
        const apiError = toApiError(failure.error);
        if (apiError.httpStatus === 400) setServerError(apiError.errorMessage);
        else showHttpError(failure.error, failure.title);
      },
    );
  }

  return (
    <Card variant="outlined" sx={{ maxWidth: 760 }}>
      <CardContent>
        <Stack component="form" noValidate spacing={2} onSubmit={handleSubmit} aria-label="System banner">
          <FormControlLabel
            control={<Switch checked={on} onChange={(e) => setOn(e.target.checked)} />}
            label="Show the system banner"
          />
          <TextField
            label="Banner message"
            multiline
            minRows={3}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            error={tooLong}
            helperText={tooLong ? ADMIN_MESSAGES.bannerTooLong : `${message.length}/${BANNER_MESSAGE_MAX}`}
            fullWidth
          />
          {serverError && (
            <Alert severity="error" role="alert">
              {serverError}
            </Alert>
          )}
          <Stack direction="row" spacing={1}>
            <PendingButton type="submit" pending={save.pending} disabled={tooLong || !dirty}>
              Save
            </PendingButton>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
