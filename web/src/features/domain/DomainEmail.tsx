import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { toApiError } from '../../api/errors';
import { PermissionView } from '../../ui/Restricted';
import { useSelectionStore } from '../../core/selectionStore';
import { toasts } from '../../core/toastService';
import { plural } from '../../lib/format';
import { PendingButton } from '../../ui/ConfirmDialog';
import { ActionFailure, useAction } from '../../ui/useAction';
import { MESSAGES } from '../../lib/validation';
import { domainApi, domainKeys, memberLabel } from '../../api/domain';
import { userApi } from '../../api/user';

export const MAX_SUBJECT_LENGTH = 200;
export const EMAIL_MESSAGES = {
  subjectFormat: `The subject must be one line of at most ${MAX_SUBJECT_LENGTH} characters.`,
  chooseRecipient: 'Choose at least one recipient.',
  failedTitle: 'Could not send the e-mail',
} as const;

export const queuedMessage = (n: number) => `${plural(n, 'e-mail')} queued`;

interface Values {
  recipients: 'all' | 'chosen';
  chosen: string[];
  subject: string;
  message: string;
}

const EMPTY: Values = { recipients: 'all', chosen: [], subject: '', message: '' };

export function validateEmail(values: Values): Partial<Record<'subject' | 'message' | 'chosen', string>> {
  const errors: Partial<Record<'subject' | 'message' | 'chosen', string>> = {};
  if (!values.subject.trim()) errors.subject = MESSAGES.fieldRequired;
  else if ([...values.subject.trim()].length > MAX_SUBJECT_LENGTH || /[\r\n]/.test(values.subject))
    errors.subject = EMAIL_MESSAGES.subjectFormat;
  if (!values.message.trim()) errors.message = MESSAGES.fieldRequired;
  if (values.recipients === 'chosen' && values.chosen.length === 0) errors.chosen = EMAIL_MESSAGES.chooseRecipient;
  return errors;
}

function EmailForm({ domainId }: { domainId: string }) {
  const domainName = useSelectionStore((s) => s.domain?.name ?? '');
  const members = useQuery({ queryKey: domainKeys.members(domainId), queryFn: () => domainApi.members(domainId) });
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const sendAction = useAction({
    action: (v: Values) => {
      const memberIds = new Map((members.data ?? []).map((m) => [String(m.id), m.id]));
      return userApi.sendEmail({
        domainId: /^\d+$/.test(domainId) ? Number(domainId) : domainId,
        userIds: v.recipients === 'all' ? [] : v.chosen.map((x) => memberIds.get(x) ?? x),
        subject: v.subject.trim(),
        message: v.message.trim(),
      });
    },
    success: (result) => queuedMessage(result?.queued ?? 0),
    successTitle: null,
    failure: 'Could not send the e-mail',
    onSuccess: (result) => {
      if (result?.noEmail?.length) toasts.warning(`No e-mail address: ${result.noEmail.join(', ')}`);
      setValues(EMPTY);
      setTouched({});
    },
  });
  const busy = sendAction.pending;
  const errors = validateEmail(values);
  const valid = Object.keys(errors).length === 0;
  const shown = (name: 'subject' | 'message' | 'chosen') => (touched[name] ? errors[name] : undefined);

  const toggle = (memberId: string) =>
    setValues((v) => ({
      ...v,
      chosen: v.chosen.includes(memberId) ? v.chosen.filter((x) => x !== memberId) : [...v.chosen, memberId],
    }));

  async function send(event: FormEvent) {
    event.preventDefault();
    setTouched({ subject: true, message: true, chosen: true });
    if (!valid) return;
    setFailure(null);
    try {
      await sendAction.submit(values);
    } catch (cause) {
      // Told in the form.
      if (cause instanceof ActionFailure) setFailure(toApiError(cause.error).errorMessage);
    }
  }

  return (
    <Stack component="form" noValidate onSubmit={send} aria-label="Email" spacing={2} sx={{ maxWidth: 720 }}>
      <Typography variant="h4" component="h1">
        Email
      </Typography>
      <Typography color="text.secondary">
        Send an e-mail to the members of {domainName || 'this domain'}. Members who opted out of e-mail notifications
        are skipped.
      </Typography>

      <FormControl>
        <FormLabel id="email-recipients-label">Recipients</FormLabel>
        <RadioGroup
          row
          aria-labelledby="email-recipients-label"
          value={values.recipients}
          onChange={(e) => setValues((v) => ({ ...v, recipients: e.target.value as Values['recipients'] }))}
        >
          <FormControlLabel value="all" control={<Radio />} label="All members" />
          <FormControlLabel value="chosen" control={<Radio />} label="Chosen members" />
        </RadioGroup>
      </FormControl>

      {values.recipients === 'chosen' && (
        <Paper variant="outlined" sx={{ p: 2, maxHeight: 280, overflow: 'auto' }}>
          {members.isPending && (
            <Stack direction="row" spacing={1.5} role="progressbar" aria-label="Loading members">
              <CircularProgress size={18} aria-hidden />
              <Typography>Loading members</Typography>
            </Stack>
          )}
          {members.isError && (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void members.refetch()}>
                  Retry
                </Button>
              }
            >
              {toApiError(members.error).errorMessage}
            </Alert>
          )}
          {members.isSuccess && (
            <FormControl error={!!shown('chosen')} component="fieldset" variant="standard">
              <FormGroup aria-label="Members">
                {members.data.map((member) => (
                  <FormControlLabel
                    key={member.id}
                    control={
                      <Checkbox
                        checked={values.chosen.includes(String(member.id))}
                        onChange={() => {
                          setTouched((t) => ({ ...t, chosen: true }));
                          toggle(String(member.id));
                        }}
                      />
                    }
                    label={memberLabel(member)}
                  />
                ))}
              </FormGroup>
              {shown('chosen') && <FormHelperText>{shown('chosen')}</FormHelperText>}
            </FormControl>
          )}
        </Paper>
      )}

      <TextField
        label="Subject"
        name="subject"
        value={values.subject}
        onChange={(e) => setValues((v) => ({ ...v, subject: e.target.value }))}
        onBlur={() => setTouched((t) => ({ ...t, subject: true }))}
        error={!!shown('subject')}
        helperText={shown('subject') || ' '}
        required
        fullWidth
      />
      <TextField
        label="Message"
        name="message"
        value={values.message}
        onChange={(e) => setValues((v) => ({ ...v, message: e.target.value }))}
        onBlur={() => setTouched((t) => ({ ...t, message: true }))}
        error={!!shown('message')}
        helperText={shown('message') || ' '}
        required
        multiline
        minRows={6}
        fullWidth
      />
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <Box>
        <PendingButton type="submit" pending={busy} disabled={!valid}>
          Send
        </PendingButton>
      </Box>
    </Stack>
  );
}

/** Email (spec 1 §2.3 Domain menu; needs domain_user_create): e-mail all or chosen members. */
export default function DomainEmail() {
  const { domain: domainId = '' } = useParams();
  return (
    <PermissionView permission="domain_user_create">
      <EmailForm key={domainId} domainId={domainId} />
    </PermissionView>
  );
}
