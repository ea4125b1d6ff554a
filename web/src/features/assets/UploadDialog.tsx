import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { uploadFiles, type SizeLimits } from '../../api/assets';
import { toasts } from '../../core/toastService';
import { PendingButton } from '../../ui/ConfirmDialog';
import { ASSET_MESSAGES, UPLOAD_TOAST_MS } from './messages';
import { UploadFileTable } from './UploadFileTable';
import { UploadQueue } from './uploadQueue';
import { addFiles, type UploadItem } from './uploadRules';

export interface UploadDialogProps {
  domain: string;
  portal: string;
  /** The folder the files go to. */
  folder: string;
  /** Names already in the folder (flagged as existing). */
  existingNames: ReadonlySet<string>;
  limits: SizeLimits | undefined;
  /** Files dropped onto the manager: added when the dialog opens. */
  initialFiles?: readonly File[];
  /** A file was stored (the explorer refreshes the folder, debounced). */
  onFileUploaded: () => void;
  onClose: () => void;
}

/**
 * The multi-file upload dialog (spec 2 §2, 600x300): Add Files, Upload, Cancel; the files'
 * table; at most 3 uploads at a time with per-file progress and retry. Closing while files
 * are unfinished cancels them with a warning.
 */
export function UploadDialog(props: UploadDialogProps) {
  const { domain, portal, folder, existingNames, limits, onFileUploaded, onClose } = props;
  const [items, setItems] = useState<UploadItem[]>([]);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef({ onFileUploaded, onClose });
  latest.current = { onFileUploaded, onClose };

  const [queue] = useState(
    () =>
      new UploadQueue((file, onProgress) => uploadFiles(domain, portal, folder, [file], onProgress), {
        onChange: (list) => {
          setItems(list);
          setBusy(queue.busy);
        },
        onFileDone: (item) => {
          if (item.status === 'UPLOADED') latest.current.onFileUploaded();
          if (item.status === 'ERRORED')
            toasts.danger(item.error ?? '', ASSET_MESSAGES.uploadFailed(item.name), {
              timeOut: UPLOAD_TOAST_MS.errorInDialog,
            });
        },
        onAllDone: (list) => {
          const uploaded = list.filter((i) => i.status === 'UPLOADED').length;
          if (uploaded > 0)
            toasts.success(ASSET_MESSAGES.uploadSuccessful, undefined, {
              timeOut: uploaded === 1 ? UPLOAD_TOAST_MS.successOne : UPLOAD_TOAST_MS.successMany,
            });
          // Everything stored: nothing left to look at.
          if (list.length > 0 && list.every((i) => i.status === 'UPLOADED')) latest.current.onClose();
        },
      }),
  );

  const add = (files: readonly File[]) => {
    const added = addFiles(queue.list, files, existingNames, limits);
    queue.setItems(added.items);
    setWarnings(added.warnings);
    for (const error of added.errors) toasts.danger(error, undefined, { timeOut: UPLOAD_TOAST_MS.errorInDialog });
  };

  const initialFiles = useRef(props.initialFiles);
  useEffect(() => {
    if (initialFiles.current?.length) add(initialFiles.current);
    initialFiles.current = undefined;
    // Added once, when the dialog opens.
  }, []);

  const close = () => {
    if (queue.cancelAll()) toasts.warning(ASSET_MESSAGES.uploadCancelled);
    onClose();
  };

  const waiting = items.filter((i) => i.status === 'QUEUED').length;
  const inFlight = items.filter((i) => i.status === 'UPLOADING').length;

  return (
    <Dialog open onClose={close} fullWidth maxWidth="sm" slotProps={{ paper: { sx: { minHeight: 300 } } }}>
      <DialogTitle>Upload Files</DialogTitle>
      <DialogContent>
        <Stack spacing={1}>
          <Typography data-testid="upload-destination">
            {ASSET_MESSAGES.uploadDestination}{' '}
            <Box component="strong" sx={{ overflowWrap: 'anywhere' }}>
              {folder === '/' || folder === '' ? ASSET_MESSAGES.rootName : folder}
            </Box>
          </Typography>
          {warnings.map((w) => (
            <Alert key={w} severity="warning">
              {w}
            </Alert>
          ))}
          {busy && <Typography role="status">{ASSET_MESSAGES.uploading(inFlight + waiting)}</Typography>}
          <UploadFileTable
            items={items}
            uploading={busy}
            onRemove={(id) => queue.setItems(queue.list.filter((i) => i.id !== id))}
            onRetry={(id) => queue.retry(id)}
          />
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="upload-input"
            accept={limits?.allowedExtensions.map((e) => `.${e.replace(/^\./, '')}`).join(',')}
            onChange={(e) => {
              add([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => input.current?.click()} disabled={busy}>
          Add Files
        </Button>
        <Button onClick={close}>Cancel</Button>
        <PendingButton pending={busy} disabled={waiting === 0} onClick={() => queue.start()}>
          Upload
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
