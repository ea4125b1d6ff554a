import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useState, type FormEvent } from 'react';
import { DataTable, type Column } from '../../ui/DataTable';
import { WHITELIST_MESSAGES as MSG } from './messages';
import { newUrlError } from './model';

/** Hidden from sight, read by screen readers (column headers of icon columns). */
export const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** The URL field with Add (the spec's URL rule), shown to users who may change the whitelist. */
export function AddUrlForm({ draft, onAdd }: { draft: readonly string[]; onAdd: (url: string) => void }) {
  const [newUrl, setNewUrl] = useState('');
  const [touched, setTouched] = useState(false);
  const newUrlMessage = newUrlError(newUrl, draft);

  function submitNew(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (newUrlMessage !== null) return;
    onAdd(newUrl.trim());
    setNewUrl('');
    setTouched(false);
  }

  return (
    <Stack
      component="form"
      direction="row"
      spacing={1}
      sx={{ alignItems: 'flex-start' }}
      onSubmit={submitNew}
      noValidate
      aria-label="Add a URL"
    >
      <TextField
        size="small"
        fullWidth
        label="URL"
        placeholder="https://"
        value={newUrl}
        onChange={(e) => setNewUrl(e.target.value)}
        onBlur={() => setTouched(newUrl !== '')}
        error={touched && newUrlMessage !== null}
        helperText={(touched && newUrlMessage) || ' '}
      />
      <Button type="submit" variant="outlined" startIcon={<AddIcon />} disabled={newUrl.trim() === ''}>
        Add
      </Button>
    </Stack>
  );
}

/** The whitelist's URLs as a table, with Remove for users who may change it. */
export function WhitelistEntries({
  draft,
  canWrite,
  onRemove,
}: {
  draft: string[];
  canWrite: boolean;
  onRemove: (url: string) => void;
}) {
  const columns: Column<string>[] = [
    {
      id: 'url',
      header: 'URL',
      rowHeader: true,
      sortValue: (u) => u,
      cell: (u) => <Box sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{u}</Box>,
    },
    {
      id: 'actions',
      header: <Box sx={visuallyHidden}>Actions</Box>,
      align: 'right',
      width: 64,
      cell: (u) =>
        canWrite ? (
          <Tooltip title="Remove">
            <IconButton size="small" aria-label={`Remove ${u}`} onClick={() => onRemove(u)}>
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null,
    },
  ];
  return <DataTable label="Whitelist" columns={columns} rows={draft} rowKey={(u) => u} emptyText={MSG.empty} />;
}
