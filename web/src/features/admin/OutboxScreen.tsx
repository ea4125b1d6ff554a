import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showHttpError, toasts } from '../../app/toasts/toastService';
import { adminApi, adminKeys, OUTBOX_STATUSES, type OutboxMail, type OutboxStatus } from './api';
import { AdminOnly, AdminPage, LoadError, Loading } from './AdminPage';
import { formatDateTime } from './validation';

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
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<OutboxStatus | ''>('');
  const [open, setOpen] = useState<OutboxMail | null>(null);
  const outbox = useQuery({
    queryKey: adminKeys.outbox(status),
    queryFn: () => adminApi.outbox(status, OUTBOX_LIMIT),
    refetchOnWindowFocus: true,
  });

  const retry = useMutation({
    mutationFn: (mail: OutboxMail) => adminApi.retryMail(mail.id),
    onSuccess: async (_, mail) => {
      toasts.success(`The e-mail to ${mail.to} was queued again.`, 'SUCCESS');
      await queryClient.invalidateQueries({ queryKey: ['admin', 'outbox'] });
    },
    onError: (error) => showHttpError(error, 'Could not retry the e-mail'),
  });

  const mails = outbox.data ?? [];
  return (
    <AdminPage
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
      {outbox.isPending && <Loading label="Loading the outbox" />}
      {outbox.isError && (
        <LoadError title="Could not load the outbox" error={outbox.error} onRetry={() => void outbox.refetch()} />
      )}
      {outbox.isSuccess && mails.length === 0 && (
        <Typography color="text.secondary">{status ? `No ${status} e-mails.` : 'The outbox is empty.'}</Typography>
      )}
      {outbox.isSuccess && mails.length > 0 && (
        <TableContainer component={Card} variant="outlined">
          <Table size="small" aria-label="Outbox">
            <TableHead>
              <TableRow>
                <TableCell>Status</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>To</TableCell>
                <TableCell>Subject</TableCell>
                <TableCell>Attempts</TableCell>
                <TableCell>Last error</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {mails.map((mail) => (
                <TableRow key={String(mail.id)} hover onClick={() => setOpen(mail)} sx={{ cursor: 'pointer' }}>
                  <TableCell>
                    <StatusChip status={mail.status} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(mail.createdAt)}</TableCell>
                  <TableCell>{mail.to}</TableCell>
                  <TableCell>
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
                  </TableCell>
                  <TableCell>{mail.attempts}</TableCell>
                  <TableCell sx={{ maxWidth: 240, wordBreak: 'break-word' }}>{mail.lastError}</TableCell>
                  <TableCell align="right">
                    {retryable(mail) && (
                      <Button
                        size="small"
                        aria-label={`Retry the e-mail to ${mail.to}: ${mail.subject}`}
                        disabled={retry.isPending}
                        onClick={(e) => {
                          e.stopPropagation();
                          retry.mutate(mail);
                        }}
                      >
                        Retry
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <MailDialog mail={open} onClose={() => setOpen(null)} />
    </AdminPage>
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
                  {mail.sentAt ? `, sent ${formatDateTime(mail.sentAt)}` : ''}, {mail.attempts} attempt
                  {mail.attempts === 1 ? '' : 's'}
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
