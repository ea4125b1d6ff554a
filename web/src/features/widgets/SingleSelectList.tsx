/**
 * A single-selection list (spec 2 §2 "Other field widgets"): radio rows with an optional search
 * box and optional pagination (the spec's page sizes 5, 10, 25, 100; default 10, spec 2 §9).
 */
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../ui/DataTable';
import type { SelectOption } from '../../ui/SelectField';
import { WIDGET_MESSAGES } from './messages';

export { DEFAULT_PAGE_SIZE, PAGE_SIZES };

export interface SingleSelectListProps {
  /** The list's accessible name (a radiogroup). */
  label: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string) => void;
  searchable?: boolean;
  paginated?: boolean;
  /** The first page size (default 10). */
  pageSize?: number;
  emptyText?: ReactNode;
  disabled?: boolean;
}

export function SingleSelectList({
  label,
  options,
  value,
  onChange,
  searchable = false,
  paginated = false,
  pageSize: initialPageSize = DEFAULT_PAGE_SIZE,
  emptyText = WIDGET_MESSAGES.noItems,
  disabled,
}: SingleSelectListProps) {
  const [search, setSearch] = useState('');
  const [pageSize, setPageSize] = useState(initialPageSize);
  const [page, setPage] = useState(0);
  const term = search.trim().toLowerCase();
  const matching = term ? options.filter((o) => o.label.toLowerCase().includes(term)) : options;
  const lastPage = Math.max(0, Math.ceil(matching.length / pageSize) - 1);
  const currentPage = Math.min(page, lastPage);
  const shown = paginated ? matching.slice(currentPage * pageSize, currentPage * pageSize + pageSize) : matching;

  return (
    <Stack spacing={1}>
      {searchable && options.length > 0 && (
        <TextField
          size="small"
          type="search"
          label={WIDGET_MESSAGES.search}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
          disabled={disabled}
        />
      )}
      {matching.length === 0 ? (
        <Typography color="text.secondary">{emptyText}</Typography>
      ) : (
        <RadioGroup aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
          {shown.map((o) => (
            <FormControlLabel
              key={o.value}
              value={o.value}
              control={<Radio size="small" />}
              label={o.label}
              disabled={disabled}
            />
          ))}
        </RadioGroup>
      )}
      {paginated && matching.length > 0 && (
        <TablePagination
          component="div"
          count={matching.length}
          page={currentPage}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...PAGE_SIZES]}
          onPageChange={(_, next) => setPage(next)}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
        />
      )}
    </Stack>
  );
}
