import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Id } from '../../api/portal';
import { previewApi, previewKeys, type PortalPreviewType, type Preview } from '../../api/preview';
import type { RoomMessage } from '../../api/realtime';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import { formatDateTime } from '../../lib/format';
import { showHttpError } from '../../core/toastService';
import { parseNotification, previewNotice, useRoomMessages } from '../realtime';
import { PREVIEW_MESSAGES as MSG, PREVIEW_PROGRESS_POLL_MS, PREVIEW_TYPE_LABELS } from './messages';
import { PreviewDetailDialog } from './PreviewDetailDialog';
import { useCreatePreview } from './useCreatePreview';

const TYPES: readonly PortalPreviewType[] = ['PORTAL_LIVE', 'PORTAL_LOCKED'];

const STATUS = {
  PROGRESS: { label: 'In progress', color: 'info' },
  READY: { label: 'Ready', color: 'success' },
  FAILED: { label: 'Failed', color: 'error' },
} as const;

/** Whether the portal may be previewed (spec 3 §4 "Previews": an inactive portal cannot be). */
export const isPreviewable = (status: string | null | undefined) => (status ?? '').toLowerCase() === 'active';

/**
 * The caller's latest preview of one type: its status, times, Details and Open; a failed one
 * shows why (e.g. its preparation stopped with the server) and Retry (creates it again).
 */
function LatestPreview({
  d,
  p,
  type,
  onDetails,
  onRetry,
  retryDisabled,
}: {
  d: Id;
  p: Id;
  type: PortalPreviewType;
  onDetails: (preview: Preview) => void;
  onRetry: () => void;
  retryDisabled: boolean;
}) {
  const latest = useQuery({
    queryKey: previewKeys.latest(d, p, type),
    queryFn: () => previewApi.latest(d, p, type),
    refetchInterval: (q) => (q.state.data?.status === 'PROGRESS' ? PREVIEW_PROGRESS_POLL_MS : false),
  });
  const label = PREVIEW_TYPE_LABELS[type];
  const preview = latest.data ?? null;
  const queryClient = useQueryClient();
  // Revoke: the link stops working at once (DELETE preview/{d}/{p}/{id}); one request at a time.
  const revoke = useMutation({
    mutationFn: (id: Id) => previewApi.remove(d, p, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: previewKeys.latest(d, p, type) }),
    onError: (error) => showHttpError(error, MSG.revokeFailed),
  });
  return (
    <Box
      component="li"
      aria-label={`Latest ${label.toLowerCase()}`}
      data-status={preview?.status ?? 'NONE'}
      sx={{ listStyle: 'none', py: 1, borderTop: 1, borderColor: 'divider' }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <Typography variant="subtitle2" sx={{ minWidth: 110 }}>
          {label}
        </Typography>
        {preview ? (
          <>
            <Chip size="small" label={STATUS[preview.status].label} color={STATUS[preview.status].color} />
            <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 0 }}>
              {preview.status === 'PROGRESS'
                ? MSG.generating
                : `${preview.branch}${preview.commitId ? ` @ ${preview.commitId.slice(0, 7)}` : ''} · ${MSG.expires} ${formatDateTime(preview.expiresAt)}`}
            </Typography>
            <Button size="small" onClick={() => onDetails(preview)}>
              {MSG.details}
            </Button>
            {preview.status === 'READY' && preview.link && (
              <Button size="small" component={Link} href={preview.link} target="_blank" rel="noopener noreferrer">
                {MSG.open}
              </Button>
            )}
            {preview.status === 'FAILED' && (
              <Button size="small" disabled={retryDisabled} onClick={onRetry}>
                {MSG.retry}
              </Button>
            )}
            {preview.status !== 'PROGRESS' && (
              <Button size="small" color="error" disabled={revoke.isPending} onClick={() => revoke.mutate(preview.id)}>
                {MSG.revoke}
              </Button>
            )}
            {preview.status === 'FAILED' && preview.error && (
              <Typography variant="caption" color="error" role="status" sx={{ flexBasis: '100%' }}>
                {preview.error.errorMessage || preview.error.errorTitle}
              </Typography>
            )}
          </>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {latest.isPending ? 'Loading…' : MSG.none}
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

/**
 * The Portal Dashboard's 'Previews' card (spec 3 §4 "Previews"; issue 13 item 4): Live preview
 * and Locked preview (portal_read; one request at a time; disabled with 'An inactive portal
 * cannot be previewed.' for an inactive portal) and the caller's latest live and locked
 * previews with Details (the 350 x 400 dialog) and Open. They are read again when a
 * CREATE_PREVIEW of this portal finishes.
 */
export function PreviewsCard({ d, p }: { d: Id; p: Id }) {
  const queryClient = useQueryClient();
  const canRead = usePermission('portal:r');
  const status = useSelectionStore((s) => s.portalInfo?.status);
  const [details, setDetails] = useState<Preview | null>(null);
  const { create, pending, overlay } = useCreatePreview(d, p, (preview) => {
    if (preview.type !== 'LOADABLE') queryClient.setQueryData(previewKeys.latest(d, p, preview.type), preview);
  });

  useRoomMessages((message: RoomMessage) => {
    if (message.messageType !== 'PROGRESS') return;
    const notification = parseNotification(message.data);
    const notice = notification && notification.status !== 'PROGRESS' ? previewNotice(notification) : null;
    if (!notice) return;
    if (notice.portalId !== String(p) || (notice.domainId !== null && notice.domainId !== String(d))) return;
    void queryClient.invalidateQueries({ queryKey: previewKeys.portal(d, p) });
  });

  if (!canRead) return null;
  const previewable = isPreviewable(status);
  return (
    <Card variant="outlined" component="section" aria-labelledby="previews-title" sx={{ flex: 1, minWidth: 280 }}>
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }} useFlexGap>
          <Typography id="previews-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {MSG.cardTitle}
          </Typography>
          {TYPES.map((type) => (
            <Tooltip key={type} title={previewable ? '' : MSG.inactive}>
              {/* A disabled button gets no pointer events: the span carries the tooltip. */}
              <span>
                <Button
                  variant={type === 'PORTAL_LIVE' ? 'contained' : 'outlined'}
                  size="small"
                  disabled={!previewable || pending !== null}
                  aria-busy={pending === type || undefined}
                  onClick={() => void create(type)}
                >
                  {PREVIEW_TYPE_LABELS[type]}
                </Button>
              </span>
            </Tooltip>
          ))}
        </Stack>
        {!previewable && (
          <Typography variant="body2" color="text.secondary">
            {MSG.inactive}
          </Typography>
        )}
        <Box component="ul" aria-label="Latest previews" sx={{ m: 0, p: 0 }}>
          {TYPES.map((type) => (
            <LatestPreview
              key={type}
              d={d}
              p={p}
              type={type}
              onDetails={setDetails}
              onRetry={() => void create(type)}
              retryDisabled={!previewable || pending !== null}
            />
          ))}
        </Box>
      </CardContent>
      {details && <PreviewDetailDialog preview={details} onClose={() => setDetails(null)} />}
      {overlay}
    </Card>
  );
}
