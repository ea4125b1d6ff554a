/**
 * Manage Loadables (spec 3 §2 "loadable management list", §4 "Loadables", §8): …/loadables-manage.
 * The portal's loadables, newest first, with what each status allows: Generate (again) for
 * PENDING and FAILED, the build output of a failed build, Approve and Reject (loadable:a),
 * Download and Preview of a package, Hand over and the hand-overs of an approved one. The list
 * follows the GENERATE_LOADABLE and UPLOAD_LOADABLE messages of this portal and the portal room's
 * LOADABLE_CHANGED (a loadable created, generated or decided by anyone), and is re-read every 5 s
 * while a loadable is generating, in case the socket is down.
 */
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  GENERATE_LOADABLE,
  LOADABLE_CHANGED,
  loadableApi,
  loadableKeys,
  UPLOAD_LOADABLE,
  type Loadable,
} from '../../api/loadables';
import type { Preview } from '../../api/preview';
import { lookupLabel, useLookup } from '../../api/lookup';
import { formatDateTime } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { useRoomMessages } from '../realtime';
import { PreviewDetailDialog } from '../preview';
import { CommitReadinessSummary } from '../readiness';
import { ApproveOverrideDialog } from './ApproveOverrideDialog';
import { BuildOutputDialog, PreviewRequestDialog, RejectDialog } from './dialogs';
import { DeliveriesList, HandOverDialog } from './HandOver';
import { LoadableActions, type LoadableDialog } from './LoadableActions';
import { LoadableScreen, type LoadablePortal } from './LoadableScreen';
import { LOADABLE_MESSAGES as MSG, STATUS_COLORS, STATUS_LABELS } from './messages';
import { useLoadableActions } from './useLoadableActions';

export const GENERATING_POLL_MS = 5000;

export default function ManageLoadablesScreen() {
  return (
    <LoadableScreen title={MSG.manageTitle} permission="loadable:r" intro={MSG.manageIntro}>
      {(p) => <LoadablesList key={`${p.domain}/${p.portal}`} {...p} />}
    </LoadableScreen>
  );
}

/** The portal id of a loadable progress message's Notification data. */
function messagePortal(data: unknown): string | null {
  const inner = data && typeof data === 'object' ? (data as { data?: unknown }).data : null;
  const id = inner && typeof inner === 'object' ? (inner as { portalId?: unknown }).portalId : null;
  return id === null || id === undefined ? null : String(id);
}

const who = (p: { userName: string } | null | undefined) => p?.userName ?? '';

function LoadablesList({ domain, portal, branch, language }: LoadablePortal) {
  const queryClient = useQueryClient();
  const types = useLookup('PayloadType');
  const [dialog, setDialog] = useState<LoadableDialog | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [expanded, setExpanded] = useState<number | null>(null);
  const query = useQuery({
    queryKey: loadableKeys.list(domain, portal),
    queryFn: () => loadableApi.list(domain, portal),
    // Others' new loadables and decisions arrive as LOADABLE_CHANGED; read again on every open too.
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.some((l) => l.status === 'GENERATING') ? GENERATING_POLL_MS : false),
    retry: false,
  });
  useRoomMessages((message) => {
    if (message.title === LOADABLE_CHANGED) {
      const id =
        message.data && typeof message.data === 'object' ? (message.data as { portalId?: unknown }).portalId : null;
      if (id == null || String(id) !== portal) return;
      void queryClient.invalidateQueries({ queryKey: loadableKeys.all(domain, portal) });
      return;
    }
    if (message.title !== GENERATE_LOADABLE && message.title !== UPLOAD_LOADABLE) return;
    if (messagePortal(message.data) !== portal) return;
    void queryClient.invalidateQueries({ queryKey: loadableKeys.all(domain, portal) });
  });
  const actions = useLoadableActions(domain, portal, {
    onPreview: (p) => {
      setDialog(null);
      setPreview(p);
    },
    onDone: () => setDialog(null),
    onOverride: (loadable) => setDialog({ kind: 'override', loadable }),
  });
  const expandedLoadable = query.data?.find((l) => l.id === expanded && l.status === 'APPROVED') ?? null;

  const columns: Column<Loadable>[] = [
    { id: 'name', header: 'Name', rowHeader: true, cell: (l) => l.name, sortValue: (l) => l.name },
    { id: 'version', header: 'Version', cell: (l) => l.version, sortValue: (l) => l.version },
    { id: 'type', header: 'Type', cell: (l) => lookupLabel(types, l.type) },
    { id: 'part', header: 'Part number', cell: (l) => l.partNumber },
    {
      id: 'commit',
      header: 'Commit',
      cell: (l) => (
        <Typography variant="body2" sx={{ fontFamily: 'monospace' }} title={`${l.gitRef} ${l.commitId}`}>
          {l.commitId.slice(0, 8)}
        </Typography>
      ),
    },
    {
      id: 'readiness',
      header: MSG.readiness,
      cell: (l) =>
        l.status === 'GENERATED' && l.commitId ? (
          <CommitReadinessSummary domain={domain} portal={portal} commitId={l.commitId} />
        ) : (
          '—'
        ),
    },
    {
      id: 'status',
      header: 'Status',
      sortValue: (l) => l.status,
      cell: (l) => (
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <Chip size="small" label={STATUS_LABELS[l.status] ?? l.status} color={STATUS_COLORS[l.status] ?? 'default'} />
          {l.status === 'FAILED' && l.error && (
            <Typography variant="caption" color="error">
              {l.error.errorTitle || l.error.errorMessage}
              {l.error.errorTitle &&
              l.error.errorMessage &&
              l.error.errorCode !== 'FAILED_TO_CREATE_LOADABLE_USING_MAKELOAD'
                ? `: ${l.error.errorMessage}`
                : ''}
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      id: 'created',
      header: 'Created',
      sortValue: (l) => l.createdAt,
      cell: (l) => (
        <>
          {who(l.createdBy)}
          <Typography variant="caption" component="div" color="text.secondary">
            {formatDateTime(l.createdAt)}
          </Typography>
        </>
      ),
    },
    {
      id: 'decided',
      header: 'Approved / rejected by',
      cell: (l) =>
        l.approvedBy || l.rejectedBy ? (
          <>
            {l.rejectedBy ? `Rejected by ${who(l.rejectedBy)}` : `Approved by ${who(l.approvedBy)}`}
            {l.rejectReason && (
              <Typography variant="caption" component="div" color="text.secondary">
                {l.rejectReason}
              </Typography>
            )}
            {l.approvalOverride && (
              <Typography variant="caption" component="div" sx={{ fontWeight: 600 }}>
                {MSG.approvedOver(l.approvalOverride.errors, l.approvalOverride.reason)}
              </Typography>
            )}
          </>
        ) : (
          '—'
        ),
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (l) => (
        <LoadableActions
          loadable={l}
          actions={actions}
          onDialog={setDialog}
          expanded={expanded === l.id}
          onToggleDeliveries={() => setExpanded(expanded === l.id ? null : l.id)}
        />
      ),
    },
  ];

  return (
    <Stack spacing={3}>
      <DataTable
        label={MSG.manageTitle}
        columns={columns}
        rows={query.data}
        rowKey={(l) => l.id}
        error={query.error}
        errorTitle={MSG.loadFailed}
        onRetry={() => void query.refetch()}
        emptyText={MSG.empty}
      />
      {expandedLoadable && <DeliveriesList domain={domain} portal={portal} loadable={expandedLoadable} />}
      {dialog?.kind === 'reject' && (
        <RejectDialog
          loadable={dialog.loadable}
          pending={actions.reject.pending}
          onReject={(reason) => actions.reject.run({ loadable: dialog.loadable, reason })}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'override' && (
        <ApproveOverrideDialog
          loadable={dialog.loadable}
          branch={branch}
          language={language}
          onApprove={(reason) => actions.approve.override(dialog.loadable, reason)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'output' && <BuildOutputDialog loadable={dialog.loadable} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'preview' && (
        <PreviewRequestDialog
          loadable={dialog.loadable}
          pending={actions.preview.pending}
          onPreview={(emulator) => actions.preview.run({ loadable: dialog.loadable, emulator })}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'handOver' && (
        <HandOverDialog domain={domain} portal={portal} loadable={dialog.loadable} onClose={() => setDialog(null)} />
      )}
      {preview && <PreviewDetailDialog preview={preview} onClose={() => setPreview(null)} />}
    </Stack>
  );
}
