import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { commitRule } from '../../../lib/validation';
import { CONFLICT_MESSAGES } from '../../conflicts';

/**
 * The commit message box (checked by the portal's commit message rule, shown under the box),
 * Revert All and Submit; Submit is disabled while the local commits conflict ('Resolve the
 * conflicts first').
 */
export function CommitBox({
  rule,
  count,
  inConflict,
  onRevertAll,
  onSubmit,
}: {
  /** The portal's commit message rule (settings' commitMessageRule; the spec's until known). */
  rule?: string;
  /** Uncommitted changes: Revert All needs some. */
  count: number;
  inConflict: boolean;
  onRevertAll: () => void;
  /** Commits; resolves true when the box is to be cleared. */
  onSubmit: (message: string) => Promise<boolean>;
}) {
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const captionId = useId();
  const { check, hint } = commitRule(rule);
  const messageError = check(message);
  const showError = touched || message !== '';

  const submit = async () => {
    if (messageError) return;
    if (await onSubmit(message)) {
      setMessage('');
      setTouched(false);
    }
  };

  return (
    <Stack spacing={1}>
      <TextField
        label="Commit message"
        multiline
        minRows={2}
        value={message}
        onChange={(e) => {
          setMessage(e.target.value);
          setTouched(true);
        }}
        onBlur={() => setTouched(true)}
        error={showError && !!messageError}
        helperText={showError && messageError ? messageError : hint}
      />
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
        {inConflict && (
          <Typography id={captionId} variant="caption" color="text.secondary" sx={{ flex: 1 }}>
            {CONFLICT_MESSAGES.resolveFirst}
          </Typography>
        )}
        <Button color="warning" disabled={count === 0} onClick={onRevertAll}>
          Revert All
        </Button>
        <Button
          variant="contained"
          disabled={!!messageError || inConflict}
          aria-describedby={inConflict ? captionId : undefined}
          onClick={() => void submit()}
        >
          Submit
        </Button>
      </Stack>
    </Stack>
  );
}
