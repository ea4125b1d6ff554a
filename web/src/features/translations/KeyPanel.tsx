import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Dispatch, SetStateAction } from 'react';
import type { Finding } from '../../api/readiness';
import type { KeyStatus, TranslationStatus } from '../../api/translations';
import { SelectField } from '../../ui/SelectField';
import { KeyList } from './KeyList';
import { languageOptions, STATUS_OPTIONS, TYPE_OPTIONS, type KeyFilter } from './model';

/**
 * The translation manager's left side: the language picker, the search box, the filters by key
 * type and status, Add key and Delete key, and the (virtualised) key list.
 */
export function KeyPanel({
  language,
  languages,
  defaultLanguage,
  onLanguage,
  filter,
  setFilter,
  canWrite,
  selectedKey,
  onSelect,
  onOpen,
  onAdd,
  onDelete,
  visibleKeys,
  keyCount,
  statusOf,
  valueOf,
  isUnsaved,
  markedOf,
}: {
  language: string;
  languages: string[];
  defaultLanguage: string;
  onLanguage: (language: string) => void;
  filter: KeyFilter;
  setFilter: Dispatch<SetStateAction<KeyFilter>>;
  canWrite: boolean;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onOpen?: (key: string) => void;
  onAdd: () => void;
  onDelete: () => void;
  visibleKeys: readonly string[];
  /** How many keys there are, unfiltered. */
  keyCount: number;
  statusOf: (key: string) => KeyStatus | undefined;
  valueOf: (key: string) => string | undefined;
  isUnsaved: (key: string) => boolean;
  markedOf?: (key: string) => readonly Finding[];
}) {
  return (
    <Card variant="outlined" sx={{ p: 2, minWidth: 240, width: { md: 380 }, flexShrink: 0 }}>
      <Stack spacing={1.5}>
        <SelectField
          label="Language"
          value={language}
          onChange={onLanguage}
          options={languageOptions(languages, defaultLanguage)}
        />
        <TextField
          size="small"
          type="search"
          label="Search keys"
          value={filter.search}
          onChange={(e) => setFilter((f) => ({ ...f, search: e.target.value }))}
        />
        <Stack direction="row" spacing={1}>
          <SelectField
            label="Key type"
            value={filter.type}
            onChange={(type) => setFilter((f) => ({ ...f, type }))}
            options={TYPE_OPTIONS}
          />
          <SelectField
            label="Status"
            value={filter.status}
            onChange={(status) => setFilter((f) => ({ ...f, status: status as TranslationStatus | '' }))}
            options={STATUS_OPTIONS}
          />
        </Stack>
        {canWrite && (
          <Stack direction="row" spacing={1}>
            <Button startIcon={<AddIcon />} variant="outlined" onClick={onAdd}>
              Add key
            </Button>
            <Button
              startIcon={<DeleteOutlineIcon />}
              variant="outlined"
              color="error"
              disabled={!selectedKey}
              onClick={onDelete}
            >
              Delete key
            </Button>
          </Stack>
        )}
        <Typography variant="body2" color="text.secondary" aria-live="polite">
          {`${visibleKeys.length} of ${keyCount} keys`}
        </Typography>
        <KeyList
          keys={visibleKeys}
          selected={selectedKey}
          onSelect={onSelect}
          onOpen={onOpen}
          statusOf={statusOf}
          valueOf={valueOf}
          isUnsaved={isUnsaved}
          markedOf={markedOf}
        />
      </Stack>
    </Card>
  );
}
