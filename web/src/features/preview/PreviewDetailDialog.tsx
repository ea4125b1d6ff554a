import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { previewApi, previewKeys, type Preview } from '../../api/preview';
import { formatDateTime } from '../../lib/format';
import { Loading } from '../../ui/Loading';
import {
  PREVIEW_DIALOG_SIZE,
  PREVIEW_MESSAGES as MSG,
  PREVIEW_PROGRESS_POLL_MS,
  PREVIEW_TYPE_LABELS,
} from './messages';
import { copyText } from '../../ui/copyText';

/** The preview's facts shown under the QR code. */
function facts(preview: Preview): Array<[string, string]> {
  const rows: Array<[string, string]> = [[MSG.type, PREVIEW_TYPE_LABELS[preview.type] ?? preview.type]];
  if (preview.branch) rows.push([MSG.branch, preview.branch]);
  if (preview.commitId) rows.push([MSG.commit, preview.commitId.slice(0, 10)]);
  if (preview.versionTag) rows.push(['Version', preview.versionTag]);
  if (preview.language) rows.push([MSG.language, preview.language]);
  if (preview.expiresAt) rows.push([MSG.expires, formatDateTime(preview.expiresAt)]);
  return rows;
}

/** The QR code of a ready preview's link (GET preview/qrCode/{id}). */
function QrCode({ id }: { id: Preview['id'] }) {
  const qr = useQuery({ queryKey: previewKeys.qrCode(id), queryFn: () => previewApi.qrCode(id), staleTime: Infinity });
  if (qr.isPending) return <Loading label={MSG.qrLoading} />;
  if (qr.isError || !qr.data?.qrCode) return <Typography color="error">{MSG.qrFailed}</Typography>;
  return (
    <Box
      component="img"
      alt={MSG.qrAlt}
      src={`data:image/png;base64,${qr.data.qrCode}`}
      sx={{ width: 150, height: 150, imageRendering: 'pixelated', alignSelf: 'center' }}
    />
  );
}

/**
 * The preview detail dialog (spec 3 §2, §9: 350 x 400): the link (opens in a new tab) with a
 * Copy button, its QR code, and the preview's type, branch, commit and expiry. A preview still
 * being generated is read again until it is ready.
 *
 * DOM hooks: dialog 'Preview', link 'Preview link', button 'Copy link', img 'QR code of the
 * preview link', button 'Close'.
 */
export function PreviewDetailDialog({ preview: initial, onClose }: { preview: Preview; onClose: () => void }) {
  const titleId = useId();
  const query = useQuery({
    queryKey: previewKeys.one(initial.domainId, initial.portalId, initial.id),
    queryFn: () => previewApi.get(initial.domainId, initial.portalId, initial.id),
    initialData: initial,
    staleTime: initial.status === 'PROGRESS' ? 0 : Infinity,
    refetchInterval: (q) => (q.state.data?.status === 'PROGRESS' ? PREVIEW_PROGRESS_POLL_MS : false),
    retry: false,
  });
  // The newer of the two (a card may already know it is ready).
  const preview = initial.status !== 'PROGRESS' ? initial : (query.data ?? initial);
  const ready = preview.status === 'READY' && !!preview.link;

  const copy = () => copyText(preview.link, { copied: MSG.linkCopied, failed: MSG.copyFailed });

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth={false}
      slotProps={{
        paper: {
          sx: { width: PREVIEW_DIALOG_SIZE.width, height: PREVIEW_DIALOG_SIZE.height, maxWidth: '100%' },
        },
      }}
    >
      <DialogTitle id={titleId}>{MSG.dialogTitle}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={1}>
          {ready ? (
            <>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
                <Link
                  href={preview.link}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label="Preview link"
                  data-testid="preview-link"
                  variant="body2"
                  sx={{ flex: 1, minWidth: 0, wordBreak: 'break-all' }}
                >
                  {preview.link}
                </Link>
                <Tooltip title={MSG.copyLink}>
                  <IconButton size="small" aria-label={MSG.copyLink} onClick={() => void copy()}>
                    <ContentCopyIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Stack>
              <QrCode id={preview.id} />
            </>
          ) : preview.status === 'FAILED' ? (
            <Alert severity="error">
              {preview.error?.errorTitle || MSG.failed}
              {preview.error?.errorMessage ? `: ${preview.error.errorMessage}` : ''}
            </Alert>
          ) : (
            <Typography color="text.secondary" role="status">
              {MSG.notReady}
            </Typography>
          )}
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5 }}>
            {facts(preview).map(([label, value]) => (
              <Box key={label} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
                  {label}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
