/** Hand-over of an approved loadable: the target dialog and the list of its deliveries. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { loadableApi, loadableKeys, systemOf, type Delivery, type Loadable } from '../../api/loadables';
import { usePermission } from '../../core/usePermission';
import { formatDateTime } from '../../lib/format';
import { PendingButton } from '../../ui/ConfirmDialog';
import { DataTable, type Column } from '../../ui/DataTable';
import { LoadError, Loading } from '../../ui/Loading';
import { useAction } from '../../ui/useAction';
import { DELIVERY_COLORS, LOADABLE_MESSAGES as MSG } from './messages';

/** Lists the configured targets (unity/profiles); the chosen one's system picks unity/… or scmdb/…. */
export function HandOverDialog({
  domain,
  portal,
  loadable,
  onClose,
}: {
  domain: string;
  portal: string;
  loadable: Loadable;
  onClose: () => void;
}) {
  const titleId = useId();
  const [target, setTarget] = useState('');
  const profiles = useQuery({
    queryKey: loadableKeys.profiles(domain, portal, loadable.id),
    queryFn: () => loadableApi.profiles(domain, portal, loadable.id),
    retry: false,
  });
  const handOver = useAction({
    action: (name: string) => {
      const chosen = profiles.data?.find((t) => t.name === name);
      return loadableApi.handOver(domain, portal, systemOf(chosen ?? { system: 'unity' }), loadable.id, name);
    },
    success: MSG.handedOver,
    failure: MSG.handOverFailed,
    invalidate: [loadableKeys.deliveries(domain, portal, loadable.id)],
    onSuccess: onClose,
  });
  let body;
  if (profiles.isError)
    body = <LoadError title={MSG.handOverFailed} error={profiles.error} onRetry={() => void profiles.refetch()} />;
  else if (!profiles.data) body = <Loading label="Loading the targets" />;
  else if (profiles.data.length === 0) body = <Alert severity="info">{MSG.noTargets}</Alert>;
  else
    body = (
      <RadioGroup aria-label={MSG.target} value={target} onChange={(e) => setTarget(e.target.value)}>
        {profiles.data.map((t) => (
          <FormControlLabel
            key={t.name}
            value={t.name}
            control={<Radio />}
            label={`${t.name} (${t.system})${t.description ? ` — ${t.description}` : ''}`}
          />
        ))}
      </RadioGroup>
    );
  return (
    <Dialog open onClose={() => !handOver.pending && onClose()} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{MSG.handOverTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>
          {loadable.name} {loadable.version}: {MSG.handOverText}
        </DialogContentText>
        {body}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={handOver.pending}>
          {MSG.cancel}
        </Button>
        <PendingButton pending={handOver.pending} disabled={!target} onClick={() => handOver.run(target)}>
          Hand over
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}

/** The hand-overs of a loadable: target, status, attempts, last error; Retry for failed ones. */
export function DeliveriesList({ domain, portal, loadable }: { domain: string; portal: string; loadable: Loadable }) {
  const canApprove = usePermission('loadable:a');
  const query = useQuery({
    queryKey: loadableKeys.deliveries(domain, portal, loadable.id),
    queryFn: () => loadableApi.deliveries(domain, portal, loadable.id),
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'QUEUED' || d.status === 'SENDING') ? 5000 : false),
    retry: false,
  });
  const retry = useAction({
    action: (d: Delivery) => loadableApi.retryDelivery(domain, portal, loadable.id, d.id),
    success: MSG.retried,
    failure: MSG.retryFailed,
    invalidate: [loadableKeys.deliveries(domain, portal, loadable.id)],
  });
  const columns: Column<Delivery>[] = [
    { id: 'target', header: 'Target', rowHeader: true, cell: (d) => `${d.target} (${d.system})` },
    {
      id: 'status',
      header: 'Status',
      cell: (d) => <Chip size="small" label={d.status} color={DELIVERY_COLORS[d.status] ?? 'default'} />,
    },
    { id: 'attempts', header: 'Attempts', align: 'right', cell: (d) => d.attempts },
    {
      id: 'last',
      header: 'Last attempt',
      cell: (d) =>
        d.deliveredAt ? formatDateTime(d.deliveredAt) : d.lastAttemptAt ? formatDateTime(d.lastAttemptAt) : '—',
    },
    {
      id: 'error',
      header: 'Last error',
      cell: (d) => (
        <Typography variant="body2" color={d.lastError ? 'error' : 'text.secondary'}>
          {d.lastError || '—'}
        </Typography>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (d) =>
        d.status === 'FAILED' && canApprove ? (
          <Button size="small" disabled={retry.pending} onClick={() => retry.run(d)}>
            Retry
          </Button>
        ) : null,
    },
  ];
  return (
    <Stack spacing={1}>
      <Typography variant="h6" component="h2">
        {MSG.deliveries}: {loadable.name} {loadable.version}
      </Typography>
      <DataTable
        label={`${MSG.deliveries} of ${loadable.name}`}
        columns={columns}
        rows={query.data}
        rowKey={(d) => d.id}
        error={query.error}
        errorTitle={MSG.deliveries}
        onRetry={() => void query.refetch()}
        emptyText={MSG.noDeliveries}
        paged={false}
      />
    </Stack>
  );
}
