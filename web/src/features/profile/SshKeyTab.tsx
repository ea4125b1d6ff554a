import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import type { User } from '../../api/types';
import { applyProfileUpdate } from '../../core/session';
import { toasts } from '../../core/toastService';
import { MESSAGES } from '../../lib/validation';
import { userApi } from '../../api/user';
import { ActionFailure, useAction } from '../../ui/useAction';
import { PROFILE_MESSAGES } from './profileApi';

/**
 * SSH Key: the public key (editable), a read-only private key and 'Generate Key'
 * (PUT user/createkey answers with a new pair and stores its public half; the private key is
 * shown once). Save stores a pasted public key (PUT user/publickey).
 */
export function SshKeyTab({ user }: { user: User }) {
  const stored = user.publicKey ?? '';
  const [publicKey, setPublicKey] = useState(stored);
  const [privateKey, setPrivateKey] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const saveKey = useAction({
    action: (key: string) => userApi.setPublicKey(key),
    success: PROFILE_MESSAGES.keySaved,
    successTitle: null,
    failure: 'Could not save the public key',
    onSuccess: (updated, key) => {
      applyProfileUpdate(
        updated && typeof updated === 'object' && 'id' in updated ? updated : { ...user, publicKey: key },
      );
      setPublicKey(key);
    },
  });
  const generateKey = useAction({
    action: async () => {
      const pair = await userApi.createKey();
      if (!pair?.publicKey || !pair.privateKey) throw new Error('no key pair');
      setPublicKey(pair.publicKey);
      setPrivateKey(pair.privateKey);
      setTouched(false);
      applyProfileUpdate({ ...user, publicKey: pair.publicKey });
    },
    failure: PROFILE_MESSAGES.keyFailed,
  });
  const busy = generateKey.pending ? 'generate' : saveKey.pending ? 'save' : null;
  const error = publicKey.trim() === '' ? MESSAGES.publicKeyRequired : null;
  const dirty = publicKey.trim() !== stored.trim();
  const showError = (touched || dirty) && !!error;

  async function generate() {
    setFailure(null);
    try {
      await generateKey.submit();
    } catch (cause) {
      // The spec's message alone, whatever the server said.
      if (cause instanceof ActionFailure) toasts.danger(PROFILE_MESSAGES.keyFailed);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (error || !dirty || busy) return;
    setFailure(null);
    try {
      await saveKey.submit(publicKey.trim());
    } catch (cause) {
      // Told in the form.
      if (cause instanceof ActionFailure) setFailure(toApiError(cause.error).errorMessage);
    }
  }

  return (
    <Stack component="form" noValidate onSubmit={save} aria-label="SSH Key" spacing={2}>
      <TextField
        label="Public key"
        name="publicKey"
        value={publicKey}
        onChange={(e) => {
          setFailure(null);
          setPublicKey(e.target.value);
        }}
        onBlur={() => setTouched(true)}
        error={showError}
        helperText={showError ? error : ' '}
        required
        multiline
        minRows={2}
        maxRows={4}
        fullWidth
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
      />
      <TextField
        label="Private key"
        name="privateKey"
        value={privateKey}
        multiline
        minRows={4}
        maxRows={10}
        fullWidth
        helperText={privateKey ? 'Copy the private key now: it is not stored and will not be shown again.' : ' '}
        slotProps={{
          htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace', fontSize: 12 } },
        }}
      />
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button variant="outlined" onClick={() => void generate()} disabled={!!busy}>
          Generate Key
        </Button>
        <Button type="submit" variant="contained" disabled={!!error || !dirty || !!busy}>
          Save
        </Button>
      </Stack>
    </Stack>
  );
}
