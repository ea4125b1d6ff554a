import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import type { Id } from '../../api/portal';
import { isSshUrl, upstreamApi, upstreamKeys, type UpstreamStatus, type WebhookInfo } from '../../api/upstream';
import { usePermission } from '../../core/usePermission';
import { ConfirmDialog, PendingButton } from '../../ui/ConfirmDialog';
import { FormDialog } from '../../ui/FormDialog';
import { requiredField } from '../../ui/schemas';
import { useAction } from '../../ui/useAction';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { UPSTREAM_MESSAGES as MSG } from './messages';
import { UpstreamSummary } from './UpstreamSummary';
import { copyText } from '../../ui/copyText';

const passwordSchema = z.object({ userName: z.string(), password: requiredField() });
type PasswordValues = z.infer<typeof passwordSchema>;

const copy = (text: string) => copyText(text, { copied: MSG.copied, failed: MSG.copyFailed });

/** A read-only value with a Copy button (a public key, a webhook URL or secret). */
function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField
        label={label}
        value={value}
        size="small"
        fullWidth
        slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } } }}
      />
      <Button size="small" onClick={() => void copy(value)} aria-label={`${MSG.copy} ${label}`}>
        {MSG.copy}
      </Button>
    </Stack>
  );
}

/**
 * The portal settings' Upstream section: the git host's state and Sync now for everyone who
 * may read the settings; replacing the credentials (user name and password or token for http(s),
 * a generated deploy key for ssh, whose public half is shown to copy) and the push webhook's URL
 * and secret for those who may write them. Nothing for a portal not created from a git URL.
 */
export function UpstreamSettings({ d, p }: { d: Id; p: Id }) {
  const canWrite = usePermission('portal_settings_write');
  const canSync = usePermission('portal:w');
  const status = useQuery({ queryKey: upstreamKeys.status(d, p), queryFn: () => upstreamApi.status(d, p) });
  if (!status.data?.configured) return null;
  return (
    <Card variant="outlined" component="section" aria-label={MSG.cardTitle} sx={{ mt: 3 }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {MSG.cardTitle}
        </Typography>
        <Stack spacing={3}>
          <UpstreamSummary d={d} p={p} status={status.data} canSync={canSync} />
          <Credentials d={d} p={p} status={status.data} canWrite={canWrite} />
          {canWrite && <Webhook d={d} p={p} />}
        </Stack>
      </CardContent>
    </Card>
  );
}

function Credentials({ d, p, status, canWrite }: { d: Id; p: Id; status: UpstreamStatus; canWrite: boolean }) {
  const [editing, setEditing] = useState(false);
  const [confirmKey, setConfirmKey] = useState(false);
  const invalidate = [upstreamKeys.status(d, p)];
  const savePassword = useAction<PasswordValues, UpstreamStatus>({
    action: (v) =>
      upstreamApi.setCredentials(d, p, { kind: 'PASSWORD', userName: v.userName.trim(), password: v.password }),
    success: MSG.credentialsSaved,
    failure: MSG.credentialsFailed,
    invalidate,
  });
  const generate = useAction<void, UpstreamStatus>({
    action: () => upstreamApi.setCredentials(d, p, { kind: 'SSH_KEY' }),
    success: MSG.keyGenerated,
    failure: MSG.keyFailed,
    invalidate,
    onSuccess: () => setConfirmKey(false),
  });
  const ssh = isSshUrl(status.url);
  const kind =
    status.authKind === 'PASSWORD' ? MSG.passwordKind : status.authKind === 'SSH_KEY' ? MSG.sshKind : MSG.noCredentials;
  return (
    <Box>
      <Typography variant="subtitle1" component="h3">
        {MSG.credentials}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {kind}
      </Typography>
      <Stack spacing={1}>
        {status.publicKey && <CopyField label={MSG.publicKey} value={status.publicKey} />}
        {canWrite && !status.secretsConfigured && <Alert severity="info">{MSG.noSecretsKey}</Alert>}
        {canWrite && status.secretsConfigured && (
          <div>
            {ssh ? (
              <Button variant="outlined" onClick={() => setConfirmKey(true)}>
                {status.authKind === 'SSH_KEY' ? MSG.regenerateKey : MSG.generateKey}
              </Button>
            ) : (
              <Button variant="outlined" onClick={() => setEditing(true)}>
                {MSG.replaceCredentials}
              </Button>
            )}
          </div>
        )}
      </Stack>
      <FormDialog<PasswordValues>
        open={editing}
        title={MSG.replaceCredentials}
        schema={passwordSchema}
        defaultValues={{ userName: '', password: '' }}
        submitLabel="Save"
        onSubmit={(v) => savePassword.submit(v)}
        onClose={() => setEditing(false)}
      >
        {(form) => (
          <>
            <ValidatedTextField name="userName" control={form.control} label={MSG.userName} autoComplete="off" />
            <ValidatedTextField
              name="password"
              control={form.control}
              label={MSG.password}
              type="password"
              autoComplete="new-password"
              required
            />
          </>
        )}
      </FormDialog>
      <ConfirmDialog
        open={confirmKey}
        title={MSG.generateKeyTitle}
        message={MSG.generateKeyMessage}
        confirmLabel={MSG.generateKey}
        pending={generate.pending}
        onConfirm={() => generate.run()}
        onClose={() => setConfirmKey(false)}
      />
    </Box>
  );
}

function Webhook({ d, p }: { d: Id; p: Id }) {
  const [shown, setShown] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const info = useQuery({
    queryKey: upstreamKeys.webhook(d, p),
    queryFn: () => upstreamApi.webhook(d, p),
    enabled: shown,
    staleTime: 0,
  });
  const rotate = useAction<void, WebhookInfo>({
    action: () => upstreamApi.rotateWebhook(d, p),
    success: MSG.rotated,
    failure: MSG.rotateFailed,
    invalidate: [upstreamKeys.webhook(d, p)],
    onSuccess: () => setConfirm(false),
  });
  return (
    <Box>
      <Typography variant="subtitle1" component="h3">
        {MSG.webhook}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {MSG.webhookHint}
      </Typography>
      {!shown && (
        <Button variant="outlined" onClick={() => setShown(true)}>
          {MSG.showWebhook}
        </Button>
      )}
      {shown && info.isError && <Alert severity="error">{MSG.webhookFailed}</Alert>}
      {shown && info.data && (
        <Stack spacing={1}>
          <CopyField label={MSG.webhookUrl} value={info.data.url} />
          <CopyField label={MSG.webhookSecret} value={info.data.secret} />
          <div>
            <PendingButton pending={rotate.pending} variant="outlined" onClick={() => setConfirm(true)}>
              {MSG.rotateWebhook}
            </PendingButton>
          </div>
        </Stack>
      )}
      <ConfirmDialog
        open={confirm}
        title={MSG.rotateTitle}
        message={MSG.rotateMessage}
        confirmLabel={MSG.rotateWebhook}
        pending={rotate.pending}
        onConfirm={() => rotate.run()}
        onClose={() => setConfirm(false)}
      />
    </Box>
  );
}
