/**
 * The TranslationSelector widget (spec 2 §2 "Translation manager", §4 "Translations"): a key
 * dropdown with search ('--- Nothing Selected ---' for none) and a pencil action that opens the
 * 'Edit Translation' dialog (Save, Cancel) to edit the key's value in the current language — rich
 * text for text keys, the asset picker for image keys, a link for link keys.
 *
 * While editing, `onPreview(key, value)` is called at once for every change (the designer posts
 * it to the preview frame with postTranslationUpdated); Cancel calls it with the original value.
 * Save writes every language at once (PUT with the versions read); a stale version offers the
 * conflict dialog.
 */
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { toApiError } from '../../api/errors';
import type { Id } from '../../api/portal';
import {
  getTranslations,
  keyType,
  languageDirection,
  shownKey,
  translationKeys,
  type KeyType,
  type Translations,
} from '../../api/translations';
import { usePermission } from '../../core/usePermission';
import { toasts } from '../../core/toastService';
import { languageLabel } from '../../lib/languages';
import { PendingButton } from '../../ui/ConfirmDialog';
import { ActionFailure, useAction } from '../../ui/useAction';
import { ConflictDialog } from '../editors';
import { TRANSLATION_MESSAGES as MSG } from './messages';
import { setDraftValue, unionKeys } from './model';
import { useTranslationData } from './useTranslationData';
import { useTranslationSave } from './useTranslationSave';
import { ValueEditor } from './ValueEditor';
import { useSaveShortcut } from '../../core/shortcuts';

export { postTranslationUpdated, translationUpdatedMessage, TRANSLATION_UPDATED } from './previewMessage';

export interface TranslationSelectorProps {
  domain: Id;
  portal: Id;
  /** The language whose value the dialog edits. */
  language: string;
  /** The selected key (upper case as stored); '' for none. */
  value: string;
  onChange: (key: string) => void;
  /** Told at once about every edit in the dialog, and about the original value on Cancel. */
  onPreview?: (key: string, value: string) => void;
  /** The dropdown's label (default 'Translation key'). */
  label?: string;
  /** Only keys of these types are offered (default: all). */
  keyTypes?: readonly KeyType[];
  disabled?: boolean;
}

const NOTHING = '';
/** The dropdown shows at most this many matches (the search narrows them). */
const OPTION_LIMIT = 200;
const filterOptions = createFilterOptions<string>({
  limit: OPTION_LIMIT,
  stringify: (option) => (option === NOTHING ? MSG.nothingSelected : shownKey(option)),
});

export function TranslationSelector({
  domain,
  portal,
  language,
  value,
  onChange,
  onPreview,
  label = 'Translation key',
  keyTypes,
  disabled,
}: TranslationSelectorProps) {
  const canWrite = usePermission('translation_write');
  const [editing, setEditing] = useState(false);
  const query = useTranslationData(domain, portal, language);

  const data = query.data?.data;
  const options = useMemo(() => {
    const keys = data ? unionKeys(data) : [];
    const allowed = keyTypes ? keys.filter((k) => (keyTypes as readonly string[]).includes(keyType(k))) : keys;
    return [NOTHING, ...allowed];
  }, [data, keyTypes]);
  const selected = value ? value.toUpperCase() : NOTHING;

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Autocomplete
        sx={{ flex: 1 }}
        size="small"
        options={options.includes(selected) ? options : [...options, selected]}
        value={selected}
        disabled={disabled}
        loading={query.isPending}
        disableClearable
        filterOptions={filterOptions}
        getOptionLabel={(option) => (option === NOTHING ? MSG.nothingSelected : shownKey(option))}
        onChange={(_, next) => onChange(next ?? NOTHING)}
        renderInput={(params) => <TextField {...params} label={label} />}
      />
      <Tooltip title={MSG.editTranslation}>
        <span>
          <IconButton
            aria-label={MSG.editTranslation}
            disabled={disabled || selected === NOTHING || !query.data || !canWrite}
            onClick={() => setEditing(true)}
          >
            <EditOutlinedIcon />
          </IconButton>
        </span>
      </Tooltip>
      {editing && query.data && (
        <EditTranslationDialog
          domain={domain}
          portal={portal}
          language={language}
          translationKey={selected}
          translations={query.data}
          onPreview={onPreview}
          onClose={() => setEditing(false)}
        />
      )}
    </Stack>
  );
}

function EditTranslationDialog({
  domain,
  portal,
  language,
  translationKey,
  translations,
  onPreview,
  onClose,
}: {
  domain: Id;
  portal: Id;
  language: string;
  translationKey: string;
  translations: Translations;
  onPreview?: (key: string, value: string) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [original, setOriginal] = useState(() => translations.data[language]?.[translationKey] ?? '');
  const [draft, setDraft] = useState(original);
  const [base, setBase] = useState(translations);
  const [conflict, setConflict] = useState(false);
  const reloader = useAction({
    action: () =>
      queryClient.fetchQuery({
        queryKey: translationKeys.data(domain, portal),
        queryFn: () => getTranslations(domain, portal),
        staleTime: 0,
      }),
    failure: MSG.loadFailed(language),
  });
  const reloading = reloader.pending;
  const saver = useTranslationSave(domain, portal);
  const dir = languageDirection(language);

  function change(next: string) {
    setDraft(next);
    onPreview?.(translationKey, next);
  }

  function cancel() {
    if (saver.saving) return;
    onPreview?.(translationKey, original);
    onClose();
  }

  useSaveShortcut(() => void save(), !saver.saving && !conflict);

  async function save() {
    const data = setDraftValue(base.data, language, translationKey, draft);
    const outcome = await saver.save(data, base.versions, language);
    if (outcome.ok) onClose();
    else if (outcome.conflict) setConflict(true);
  }

  async function reload(reapply: boolean) {
    try {
      const fresh = await reloader.submit();
      setBase(fresh);
      const freshValue = fresh.data[language]?.[translationKey] ?? '';
      setOriginal(freshValue);
      if (!reapply) change(freshValue);
      setConflict(false);
    } catch (failure) {
      if (!(failure instanceof ActionFailure)) return;
      toasts.show({ type: 'DANGER', title: MSG.loadFailed(language), message: toApiError(failure.error).errorMessage });
    }
  }

  return (
    <Dialog open onClose={cancel} fullWidth maxWidth="md" aria-labelledby="edit-translation-title">
      <DialogTitle id="edit-translation-title">{MSG.editTranslation}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          <Typography sx={{ fontFamily: 'monospace' }}>{shownKey(translationKey)}</Typography>
          <Typography variant="body2" color="text.secondary">
            {languageLabel(language)}
          </Typography>
          {saver.saving && (
            <Typography role="status" color="text.secondary">
              {MSG.pleaseWait}
            </Typography>
          )}
          <ValueEditor
            translationKey={translationKey}
            value={draft}
            onChange={change}
            dir={dir}
            label="Translation value"
            domain={domain}
            portal={portal}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={cancel} disabled={saver.saving}>
          Cancel
        </Button>
        <PendingButton pending={saver.saving} onClick={() => void save()}>
          Save
        </PendingButton>
      </DialogActions>
      <ConflictDialog
        open={conflict}
        busy={reloading}
        onCancel={() => setConflict(false)}
        onReapply={() => void reload(true)}
        onDiscard={() => void reload(false)}
      />
    </Dialog>
  );
}

export default TranslationSelector;
