import DeleteIcon from '@mui/icons-material/CloseOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatSize } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { ASSET_MESSAGES } from './messages';
import type { UploadItem } from './uploadRules';

interface UploadFileTableProps {
  items: readonly UploadItem[];
  /** While uploading files cannot be removed. */
  uploading: boolean;
  onRemove: (id: string) => void;
  onRetry: (id: string) => void;
}

const STATUS_LABELS: Record<UploadItem['status'], string> = {
  QUEUED: '',
  UPLOADING: 'Uploading',
  ERRORED: 'Failed',
  UPLOADED: 'Uploaded',
  CANCELLED: 'Cancelled',
};

/** The upload dialog's files: name (with status and progress), size, exists, remove; sortable by name, size, exists. */
export function UploadFileTable({ items, uploading, onRemove, onRetry }: UploadFileTableProps) {
  const columns: Array<Column<UploadItem>> = [
    {
      id: 'name',
      header: 'Name',
      rowHeader: true,
      sortValue: (i) => i.name.toLowerCase(),
      cell: (i) => (
        <Stack spacing={0.5}>
          <span>{i.name}</span>
          {i.status !== 'QUEUED' && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <LinearProgress
                variant="determinate"
                value={i.progress}
                color={i.status === 'ERRORED' ? 'error' : 'primary'}
                aria-label={`Upload of ${i.name}`}
                sx={{ flex: 1 }}
              />
              <Typography variant="caption" data-status={i.status}>
                {STATUS_LABELS[i.status]}
              </Typography>
            </Stack>
          )}
          {i.error && (
            <Typography variant="caption" color="error">
              {i.error}
            </Typography>
          )}
        </Stack>
      ),
    },
    { id: 'size', header: 'Size', sortValue: (i) => i.size, cell: (i) => formatSize(i.size) },
    { id: 'exists', header: 'Exists', sortValue: (i) => (i.exists ? 1 : 0), cell: (i) => (i.exists ? 'Yes' : 'No') },
    {
      id: 'remove',
      header: 'Remove',
      cell: (i) =>
        i.status === 'ERRORED' || i.status === 'CANCELLED' ? (
          <IconButton size="small" aria-label={`Retry ${i.name}`} onClick={() => onRetry(i.id)}>
            <ReplayIcon fontSize="small" />
          </IconButton>
        ) : (
          <IconButton
            size="small"
            aria-label={`Remove ${i.name}`}
            onClick={() => onRemove(i.id)}
            disabled={uploading || i.status !== 'QUEUED'}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        ),
    },
  ];
  return (
    <DataTable
      label="Files to upload"
      columns={columns}
      rows={items}
      rowKey={(i) => i.id}
      emptyText={ASSET_MESSAGES.noFilesSelected}
      paged={false}
    />
  );
}
