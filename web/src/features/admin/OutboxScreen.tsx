import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { OUTBOX_STATUSES, outboxApi, outboxKeys, type OutboxMail, type OutboxStatus } from '../../api/outbox';
import { AdminOnly } from './AdminPage';
import { PageFrame } from '../../ui/PageFrame';
import { plural } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { useAction } from '../../ui/useAction';
import { formatDateTime } from '../../lib/format';

export const OUTBOX_LIMIT = 200;
export const HELD_EXPLANATION = 'SMTP is not configured: messages are kept here.';

const STATUS_COLOR: Record<OutboxStatus, ChipProps['color']> = {
  pending: 'info',
  sending: 'info',
  sent: 'success',
  failed: 'error',
  held: 'warning',
  skipped: 'default',
};

const retryable = (mail: OutboxMail) => mail.status === 'failed' || mail.status === 'held' || mail.status === 'skipped';

function StatusChip({ status }: { status: OutboxStatus }) {
  return <Chip size="small" label={status} color={STATUS_COLOR[status] ?? 'default'} variant="outlined" />;
}

/**
 * Mail Outbox (our design, docs/api.md GET /admin/outbox): every e-mail the
 * server queued, newest first. An operator without SMTP reads one-time
 * passwords and reset links here.
 */
export default function OutboxScreen() {
  return (
    <AdminOnly>
      <OutboxScreenContent />
    </AdminOnly>
  );
}

function OutboxScreenContent() {
  const [status, setStatus] = useState<OutboxStatus | ''>('');
  const [open, setOpen] = useState<OutboxMail | null>(null);
  const outbox = useQuery({
    queryKey: outboxKeys.list(status),
    queryFn: () => outboxApi.list(status, OUTBOX_LIMIT),
    refetchOnWindowFocus: true,
  });

  const retry = useAction({
    action: (mail: OutboxMail) => outboxApi.retry(mail.id),
    success: (_, mail) => `The e-mail to ${mail.to} was queued again.`,
    failure: 'Could not retry the e-mail',
    invalidate: [outboxKeys.all],
  });

  const columns: Array<Column<OutboxMail>> = [
    { id: 'status', header: 'Status', cell: (m) => <StatusChip status={m.status} />, sortValue: (m) => m.status },
    {
      id: 'created',
      header: 'Created',
      cell: (m) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.createdAt)}</Box>,
      sortValue: (m) => m.createdAt,
    },
    { id: 'to', header: 'To', cell: (m) => m.to, sortValue: (m) => m.to },
    {
      id: 'subject',
      header: 'Subject',
      sortValue: (m) => m.subject,
      cell: (mail) => (
        <Button
          size="small"
          sx={{ textTransform: 'none', p: 0, minWidth: 0, textAlign: 'left' }}
          onClick={(e) => {
            e.stopPropagation();
            setOpen(mail);
          }}
        >
          {mail.subject || '(no subject)'}
        </Button>
      ),
    },
    { id: 'attempts', header: 'Attempts', cell: (m) => m.attempts, sortValue: (m) => m.attempts },
    {
      id: 'lastError',
      header: 'Last error',
      cell: (m) => <Box sx={{ maxWidth: 240, wordBreak: 'break-word' }}>{m.lastError}</Box>,
    },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (mail) =>
        retryable(mail) && (
          <Button
            size="small"
            aria-label={`Retry the e-mail to ${mail.to}: ${mail.subject}`}
            disabled={retry.pending}
            onClick={(e) => {
              e.stopPropagation();
              retry.run(mail);
            }}
          >
            Retry
          </Button>
        ),
    },
  ];

  return (
    <PageFrame
      title="Mail Outbox"
      intro={
        <>
          Every e-mail the server sends, newest first. Open a row to read the whole message.{' '}
          <Box component="span" sx={{ fontWeight: 600 }}>
            held
          </Box>
          : {HELD_EXPLANATION}
        </>
      }
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField
            select
            size="small"
            label="Status"
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            value={status}
            onChange={(e) => setStatus(e.target.value as OutboxStatus | '')}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="">All</MenuItem>
            {OUTBOX_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
          <Button onClick={() => void outbox.refetch()} disabled={outbox.isFetching}>
            Refresh
          </Button>
        </Stack>
      }
    >
      <DataTable
        label="Outbox"
        columns={columns}
        rows={outbox.data}
        rowKey={(m) => String(m.id)}
        loading={outbox.isPending}
        loadingText="Loading the outbox"
        error={outbox.error}
        errorTitle="Could not load the outbox"
        onRetry={() => void outbox.refetch()}
        emptyText={status ? `No ${status} e-mails.` : 'The outbox is empty.'}
        onRowClick={setOpen}
      />
      <MailDialog mail={open} onClose={() => setOpen(null)} />
    </PageFrame>
  );
}

function MailDialog({ mail, onClose }: { mail: OutboxMail | null; onClose: () => void }) {
  return (
    <Dialog open={!!mail} onClose={onClose} fullWidth maxWidth="md">
      {mail && (
        <>
          <DialogTitle>{mail.subject || '(no subject)'}</DialogTitle>
          <DialogContent>
            <Stack spacing={1}>
              <Typography variant="body2">To: {mail.toName ? `${mail.toName} <${mail.to}>` : mail.to}</Typography>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <StatusChip status={mail.status} />
                <Typography variant="body2" color="text.secondary">
                  Created {formatDateTime(mail.createdAt)}
                  {mail.sentAt ? `, sent ${formatDateTime(mail.sentAt)}` : ''}, {plural(mail.attempts, 'attempt')}
                </Typography>
              </Stack>
              {mail.status === 'held' && <Alert severity="warning">{HELD_EXPLANATION}</Alert>}
              {mail.lastError && <Alert severity="error">{mail.lastError}</Alert>}
              <Box
                component="pre"
                aria-label="Message text"
                sx={{
                  m: 0,
                  p: 2,
                  bgcolor: 'grey.100',
                  borderRadius: 1,
                  whiteSpace: 'pre-wrap',
                  wordBreak: 'break-word',
                  fontFamily: 'monospace',
                  fontSize: 14,
                }}
              >
                {mail.text}
              </Box>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
