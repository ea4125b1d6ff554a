import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import { fetchPreferences, isBannerOn, PREFERENCES_QUERY_KEY, type BannerPreference } from '../../app/shell/BannerSlot';
import { showHttpError, toasts } from '../../app/toasts/toastService';
import { adminApi } from './api';
import { AdminOnly, AdminPage, LoadError, Loading } from './AdminPage';
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
  const query = useQuery({ queryKey: PREFERENCES_QUERY_KEY, queryFn: fetchPreferences });
  const preference = query.data?.[0];

  return (
    <AdminPage title="System Preferences" intro="The banner is shown to every signed-in user under the header.">
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
    </AdminPage>
  );
}

function BannerForm({ preference }: { preference: BannerPreference }) {
  const queryClient = useQueryClient();
  const initialOn = isBannerOn(preference.bannerStatus);
  const initialMessage = preference.bannerMessage ?? '';
  const [on, setOn] = useState(initialOn);
  const [message, setMessage] = useState(initialMessage);
  const [serverError, setServerError] = useState<string | null>(null);

  const tooLong = message.length > BANNER_MESSAGE_MAX;
  const dirty = on !== initialOn || message !== initialMessage;

  const save = useMutation({
    mutationFn: () =>
      adminApi.updatePreference({
        id: preference.id,
        bannerStatus: on ? 'BANNER_ON' : 'BANNER_OFF',
        bannerMessage: message,
      }),
    onSuccess: async () => {
      setServerError(null);
      toasts.success('Preferences saved.', 'SUCCESS');
      await queryClient.invalidateQueries({ queryKey: PREFERENCES_QUERY_KEY });
    },
    onError: (error) => {
      const apiError = toApiError(error);
      if (apiError.httpStatus === 400) setServerError(apiError.errorMessage);
      else showHttpError(apiError, 'Could not save the preferences');
    },
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (tooLong || !dirty || save.isPending) return;
    save.mutate();
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
            <Button type="submit" variant="contained" disabled={tooLong || !dirty || save.isPending}>
              {save.isPending ? 'Saving' : 'Save'}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
