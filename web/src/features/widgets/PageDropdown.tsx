/**
 * A searchable page dropdown (spec 2 §2 "Link manager" Internal, "Page selector … as a dropdown
 * widget"): a combobox of the sitemap's pages flattened with indentation. Hidden pages are left
 * out unless `includeHidden` (the link manager: still linkable, marked 'hidden').
 */
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import type { SitemapPage } from '../../api/sitemap';
import { WIDGET_MESSAGES } from './messages';
import { flattenPages, isInactivePage, pageLabel, type FlatPage } from './sitemapTree';

export interface PageDropdownProps {
  root: SitemapPage | null | undefined;
  /** The chosen page id ('' or null: none). */
  value: string | null;
  onChange: (page: SitemapPage | null) => void;
  /** The combobox's label (accessible name). */
  label?: string;
  includeHidden?: boolean;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  helperText?: string;
  loading?: boolean;
}

export function PageDropdown({
  root,
  value,
  onChange,
  label = 'Page',
  includeHidden = false,
  required,
  disabled,
  error,
  helperText,
  loading,
}: PageDropdownProps) {
  const options = useMemo(
    () => flattenPages(root).filter((row) => includeHidden || !row.hidden),
    [root, includeHidden],
  );
  const selected = options.find((row) => row.page.id === value) ?? null;
  // A value that is not in the sitemap (a deleted page) stays visible as itself.
  const unknown: FlatPage | null =
    value && !selected ? { page: { id: value, title: value }, depth: 0, hidden: false } : null;
  return (
    <Autocomplete<FlatPage, false, false, false>
      options={options}
      value={selected ?? unknown}
      onChange={(_, row) => onChange(row ? row.page : null)}
      getOptionLabel={(row) => pageLabel(row.page)}
      isOptionEqualToValue={(a, b) => a.page.id === b.page.id}
      getOptionKey={(row) => row.page.id}
      noOptionsText={WIDGET_MESSAGES.noItems}
      disabled={disabled}
      loading={loading}
      size="small"
      fullWidth
      renderOption={({ key, ...props }, row) => (
        <Box
          component="li"
          key={key}
          {...props}
          data-page-id={row.page.id}
          sx={{
            pl: `${16 + row.depth * 16}px !important`,
            color: isInactivePage(row.page) ? 'text.disabled' : undefined,
          }}
        >
          {pageLabel(row.page)}
          {row.hidden && <Chip size="small" label={WIDGET_MESSAGES.hiddenPage} sx={{ ml: 1 }} variant="outlined" />}
        </Box>
      )}
      renderInput={(params) => (
        <TextField {...params} label={label} required={required} error={error} helperText={helperText} />
      )}
    />
  );
}
