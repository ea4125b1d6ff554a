/** The small dialogs of Manage Loadables: reject with a reason, the build output, the preview's emulator. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { EMULATORS, MAX_OVERRIDE_REASON, type Loadable } from '../../api/loadables';
import { runeCount } from '../../lib/validation';
import { PendingButton } from '../../ui/ConfirmDialog';
import { SelectField } from '../../ui/SelectField';
import { EMULATOR_LABELS, LOADABLE_MESSAGES as MSG } from './messages';

/** Reject: an optional reason (≤ 1000 characters, counted as the server and the approve-override dialog count them). */
export function RejectDialog({
  loadable,
  pending,
  onReject,
  onClose,
}: {
  loadable: Loadable;
  pending: boolean;
  onReject: (reason: string) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const [reason, setReason] = useState('');
  const tooLong = runeCount(reason.trim()) > MAX_OVERRIDE_REASON;
  return (
    <Dialog open onClose={() => !pending && onClose()} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{MSG.rejectTitle}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            {loadable.name} {loadable.version}: {MSG.rejectText}
          </DialogContentText>
          <TextField
            label={MSG.reason}
            multiline
            minRows={2}
            autoFocus
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={tooLong}
            helperText={tooLong ? MSG.reasonTooLong : ' '}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          {MSG.cancel}
        </Button>
        <PendingButton pending={pending} disabled={tooLong} color="error" onClick={() => onReject(reason.trim())}>
          Reject
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}

/** The output of a failed build (FAILED_TO_CREATE_LOADABLE_USING_MAKELOAD). */
export function BuildOutputDialog({ loadable, onClose }: { loadable: Loadable; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth={false}>
      <DialogTitle id={titleId}>{MSG.outputTitle}</DialogTitle>
      <DialogContent sx={{ width: '80vw' }}>
        <DialogContentText>{loadable.error?.errorMessage}</DialogContentText>
        <pre aria-label={MSG.outputTitle} style={{ whiteSpace: 'pre-wrap', maxHeight: '60vh', overflow: 'auto' }}>
          {loadable.error?.output ?? ''}
        </pre>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Preview: the emulator the link opens in. */
export function PreviewRequestDialog({
  loadable,
  pending,
  onPreview,
  onClose,
}: {
  loadable: Loadable;
  pending: boolean;
  onPreview: (emulator: string) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const [emulator, setEmulator] = useState<string>('phone');
  return (
    <Dialog open onClose={() => !pending && onClose()} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{MSG.previewTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {loadable.name} {loadable.version}
        </DialogContentText>
        <SelectField
          label={MSG.emulator}
          value={emulator}
          onChange={setEmulator}
          options={EMULATORS.map((e) => ({ value: e, label: EMULATOR_LABELS[e] }))}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          {MSG.cancel}
        </Button>
        <PendingButton pending={pending} onClick={() => onPreview(emulator)}>
          Preview
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
