import Card from '@mui/material/Card';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { LoadError, Loading } from './Loading';

/** The spec's page sizes (spec 1 §3 "Tables"): 5, 10, 25, 100; default 10. */
export const PAGE_SIZES = [5, 10, 25, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

export interface Column<T> {
  id: string;
  header: ReactNode;
  /** The cell of a row. */
  cell: (row: T) => ReactNode;
  /** Makes the column sortable by this value. */
  sortValue?: (row: T) => string | number | null | undefined;
  align?: 'left' | 'right' | 'center';
  width?: number | string;
  /** The column that names the row: its cells are row headers (th scope="row"). */
  rowHeader?: boolean;
}

export type SortDirection = 'asc' | 'desc';

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: ReadonlyArray<Column<T>>;
  /** The rows; undefined while loading. */
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  /** A failed load: shown as an error row with Retry. */
  error?: unknown;
  errorTitle?: string;
  onRetry?: () => void;
  loadingText?: string;
  emptyText?: ReactNode;
  initialSort?: { column: string; direction?: SortDirection };
  /** Told when the user sorts (a screen that remembers its sort). */
  onSortChange?: (sort: { column: string; direction: SortDirection }) => void;
  onRowClick?: (row: T) => void;
  /** With onRowClick: the row's accessible name, and the row is focusable (Enter or Space opens it). */
  rowLabel?: (row: T) => string;
  selectedKey?: string | number | null;
  /** False: every row on one page (short fixed lists). */
  paged?: boolean;
  size?: 'small' | 'medium';
}

function compare(a: string | number | null | undefined, b: string | number | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/** Rows sorted by a column (stable; empty values last). */
export function sortRows<T>(rows: readonly T[], column: Column<T> | undefined, direction: SortDirection): T[] {
  const value = column?.sortValue;
  if (!value) return [...rows];
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => sign * compare(value(x.row), value(y.row)) || x.index - y.index)
    .map((x) => x.row);
}

/**
 * A real table with column headers: loading, error and empty rows, sortable columns
 * (aria-sort on the header) and paging with the spec's page sizes (5/10/25/100, default 10).
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  loading,
  error,
  errorTitle = 'Could not load the list',
  onRetry,
  loadingText = 'Loading',
  emptyText = 'Nothing to show.',
  initialSort,
  onSortChange,
  onRowClick,
  rowLabel,
  selectedKey,
  paged = true,
  size = 'small',
}: DataTableProps<T>) {
  const [sortBy, setSortBy] = useState(initialSort?.column);
  const [direction, setDirection] = useState<SortDirection>(initialSort?.direction ?? 'asc');
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(0);

  const sorted = sortRows(
    rows ?? [],
    columns.find((c) => c.id === sortBy),
    direction,
  );
  const lastPage = Math.max(0, Math.ceil(sorted.length / pageSize) - 1);
  const currentPage = Math.min(page, lastPage);
  const showPaging = paged && sorted.length > PAGE_SIZES[0];
  const visible = showPaging ? sorted.slice(currentPage * pageSize, currentPage * pageSize + pageSize) : sorted;

  function toggleSort(column: string) {
    const next: SortDirection = sortBy === column && direction === 'asc' ? 'desc' : 'asc';
    setSortBy(column);
    setDirection(next);
    onSortChange?.({ column, direction: next });
  }

  const span = columns.length;
  let body: ReactNode;
  if (error && !rows) {
    body = (
      <TableRow>
        <TableCell colSpan={span}>
          <LoadError title={errorTitle} error={error} onRetry={onRetry} />
        </TableCell>
      </TableRow>
    );
  } else if (loading || !rows) {
    body = (
      <TableRow>
        <TableCell colSpan={span}>
          <Loading label={loadingText} />
        </TableCell>
      </TableRow>
    );
  } else if (sorted.length === 0) {
    body = (
      <TableRow>
        <TableCell colSpan={span}>
          <Typography color="text.secondary">{emptyText}</Typography>
        </TableCell>
      </TableRow>
    );
  } else {
    body = visible.map((row) => {
      const key = rowKey(row);
      const selected = selectedKey !== undefined && selectedKey !== null && String(selectedKey) === String(key);
      return (
        <TableRow
          key={key}
          hover={!!onRowClick}
          selected={selected}
          aria-selected={onRowClick ? selected : undefined}
          onClick={onRowClick ? () => onRowClick(row) : undefined}
          tabIndex={onRowClick && rowLabel ? 0 : undefined}
          aria-label={rowLabel?.(row)}
          onKeyDown={
            onRowClick && rowLabel
              ? (e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onRowClick(row);
                  }
                }
              : undefined
          }
          sx={onRowClick ? { cursor: 'pointer' } : undefined}
        >
          {columns.map((c) => (
            <TableCell
              key={c.id}
              align={c.align}
              component={c.rowHeader ? 'th' : 'td'}
              scope={c.rowHeader ? 'row' : undefined}
            >
              {c.cell(row)}
            </TableCell>
          ))}
        </TableRow>
      );
    });
  }

  return (
    <TableContainer component={Card} variant="outlined">
      <Table size={size} aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((c) => {
              const active = sortBy === c.id;
              return (
                <TableCell
                  key={c.id}
                  align={c.align}
                  sx={c.width !== undefined ? { width: c.width } : undefined}
                  aria-sort={
                    c.sortValue ? (active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none') : undefined
                  }
                  sortDirection={active ? direction : false}
                >
                  {c.sortValue ? (
                    <TableSortLabel
                      active={active}
                      direction={active ? direction : 'asc'}
                      onClick={() => toggleSort(c.id)}
                    >
                      {c.header}
                    </TableSortLabel>
                  ) : (
                    c.header
                  )}
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <TableBody>{body}</TableBody>
        {showPaging && (
          <TableFooter>
            <TableRow>
              <TablePagination
                colSpan={span}
                count={sorted.length}
                page={currentPage}
                rowsPerPage={pageSize}
                rowsPerPageOptions={[...PAGE_SIZES]}
                onPageChange={(_, next) => setPage(next)}
                onRowsPerPageChange={(e) => {
                  setPageSize(Number(e.target.value));
                  setPage(0);
                }}
              />
            </TableRow>
          </TableFooter>
        )}
      </Table>
    </TableContainer>
  );
}
