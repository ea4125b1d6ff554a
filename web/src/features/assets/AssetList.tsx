import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import FolderIcon from '@mui/icons-material/FolderOutlined';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { isFolder, type Asset, protectedLabel } from '../../api/assets';
import { formatDateTime, formatSize } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { SORT_VALUES } from './assetColumns';
import type { AssetViewProps } from './AssetGrid';
import { EditAction } from './EditAction';
import type { AssetSort } from './useAssetSort';

interface AssetListProps extends Omit<AssetViewProps, 'domain' | 'portal' | 'branch' | 'thumbnailToken'> {
  sort: AssetSort;
  onSortChange: (sort: AssetSort) => void;
  /** Downloads a file; absent without asset_write (and in pickers). */
  onDownload?: (asset: Asset) => void;
}

/** The folder's assets as a table: name, createdDate, type, dimensions, size, action (spec 2 §2). */
export function AssetList({
  assets,
  selected,
  selectable,
  onToggle,
  onOpenFolder,
  sort,
  onSortChange,
  onDownload,
  onEdit,
  markOf,
}: AssetListProps) {
  const columns: Array<Column<Asset>> = [
    {
      id: 'name',
      header: 'Name',
      rowHeader: true,
      sortValue: SORT_VALUES.name,
      cell: (a) =>
        isFolder(a) ? (
          <Stack direction="row" spacing={0.5} component="span" sx={{ alignItems: 'center' }}>
            <Link component="button" type="button" onClick={() => onOpenFolder(a.path)}>
              <Stack direction="row" spacing={0.5} component="span" sx={{ alignItems: 'center' }}>
                <FolderIcon fontSize="small" aria-hidden />
                <span>{a.name}</span>
              </Stack>
            </Link>
            {markOf?.(a)}
          </Stack>
        ) : markOf ? (
          <Stack direction="row" spacing={0.5} component="span" sx={{ alignItems: 'center' }}>
            <span>{a.name}</span>
            {markOf(a)}
          </Stack>
        ) : (
          a.name
        ),
    },
    {
      id: 'createdDate',
      header: 'Created',
      sortValue: SORT_VALUES.createdDate,
      cell: (a) => formatDateTime(a.createdDate),
    },
    {
      id: 'type',
      header: 'Type',
      sortValue: SORT_VALUES.type,
      // A link, submodule or LFS object says what it is (the product never changes those).
      cell: (a) => protectedLabel(a) ?? (isFolder(a) ? 'Folder' : a.type),
    },
    { id: 'dimensions', header: 'Dimensions', sortValue: SORT_VALUES.dimensions, cell: (a) => a.dimensions ?? '' },
    {
      id: 'size',
      header: 'Size',
      align: 'right',
      sortValue: SORT_VALUES.size,
      cell: (a) => (isFolder(a) ? '' : formatSize(a.size)),
    },
    {
      id: 'action',
      header: 'Action',
      cell: (a) =>
        isFolder(a) ? null : (
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            {selectable && (
              <Checkbox
                size="small"
                checked={selected.has(a.path)}
                onChange={() => onToggle(a)}
                slotProps={{ input: { 'aria-label': `Select ${a.name}` } }}
              />
            )}
            {onEdit && <EditAction asset={a} onEdit={onEdit} />}
            {onDownload && (
              <IconButton size="small" aria-label={`Download ${a.name}`} onClick={() => onDownload(a)}>
                <DownloadIcon fontSize="small" />
              </IconButton>
            )}
          </Stack>
        ),
    },
  ];
  return (
    <DataTable
      label="Assets"
      columns={columns}
      rows={assets}
      rowKey={(a) => a.path}
      initialSort={sort}
      onSortChange={onSortChange}
      paged={false}
    />
  );
}
