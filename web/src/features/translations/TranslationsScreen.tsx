/**
 * The Translation manager (spec 2 §2 "Translation manager", §3, §4, §5, §6, §8):
 * …/branch/{branch}/{language}/translations.
 *
 * Left: the language picker, a search box, filters by key type and status, Add key and Delete
 * key, and the (virtualised) key list with the status icon of the current language. Right: the
 * 'Current Language' heading, the selected key's editor (rich text, image or link), for a
 * non-default language the default-language value read-only beside it, a spell-check checkbox
 * (kept in localStorage), Save and Cancel.
 *
 * Every language file is edited in one draft and saved at once with the versions read; a stale
 * version opens the conflict dialog. Unsaved changes (key changes and value changes) prompt
 * before a language switch, before leaving the route and before the page unloads — except for
 * users without translation_write, who cannot change anything (editors are read-only).
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import {
  getLanguage,
  getTranslations,
  getTranslationStatus,
  languageDirection,
  shownKey,
  translationKeys,
  TRANSLATION_STATUSES,
  type KeyStatus,
  type TranslationData,
  type Translations,
  type TranslationStatus,
  type TranslationVersions,
} from '../../api/translations';
import { isCaptivePortal, isLimitedPortal, isUniversalPortal } from '../../app/nav/menus';
import { PermissionView } from '../../app/permissions/Restricted';
import { usePermission } from '../../app/permissions/usePermission';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { toasts } from '../../app/toasts/toastService';
import { toApiError } from '../../api/errors';
import { languageLabel } from '../../lib/languages';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { SelectField } from '../../ui/SelectField';
import { ConflictDialog } from '../editors/ConflictDialog';
import { PresenceBar, usePresence } from '../presence';
import { useTaskRunnerBusy } from '../taskrunner/taskRunnerStore';
import { usePortalParams } from '../portals-admin/shared';
import { AddKeyDialog } from './AddKeyDialog';
import { KeyList } from './KeyList';
import { SPELL_CHECK_STORAGE_KEY, TRANSLATION_MESSAGES as MSG } from './messages';
import {
  addKeyToDraft,
  changedKeys,
  computeKeyStatus,
  deleteKeyFromDraft,
  filterKeys,
  hasUnsavedChanges,
  indexKeys,
  reapplyChanges,
  setDraftValue,
  unionKeys,
  unsavedChanges,
  type KeyFilter,
} from './model';
import { useTranslationData } from './useTranslationData';
import { useTranslationSave } from './useTranslationSave';
import { ValueEditor } from './ValueEditor';

export default function TranslationsScreen() {
  const { domain, portal, branch, language, opened } = usePortalParams();
  const selected = useSelectionStore((s) => s.portal);
  const unavailable = isLimitedPortal(selected) || isUniversalPortal(selected) || isCaptivePortal(selected);
  return (
    <PermissionView permission="translation:r">
      {!opened ? (
        <PageFrame title={MSG.title}>
          <Loading label="Opening the portal" />
        </PageFrame>
      ) : unavailable ? (
        <PageFrame title={MSG.title}>
          <Alert severity="info" role="alert">
            {MSG.notAvailable}
          </Alert>
        </PageFrame>
      ) : (
        <TranslationManager
          key={`${domain}/${portal}/${branch}`}
          domain={domain}
          portal={portal}
          routeLanguage={language}
        />
      )}
    </PermissionView>
  );
}

/** The file of a language's translations (issue 21 presence): as the server found it, else the product's name. */
const translationPath = (info: Translations, language: string) =>
  info.files?.[language] ?? `translations/${language}.json`;

function readSpellCheck(): boolean {
  try {
    return window.localStorage.getItem(SPELL_CHECK_STORAGE_KEY) !== 'false';
  } catch {
    return true;
  }
}

interface Loaded {
  baseline: TranslationData;
  draft: TranslationData;
  versions: TranslationVersions;
}

const TYPE_OPTIONS = [
  { value: '', label: 'All types' },
  { value: 'TXT', label: 'Text (txt)' },
  { value: 'IMG', label: 'Image (img)' },
  { value: 'LNK', label: 'Link (lnk)' },
];
const STATUS_LABELS: Record<TranslationStatus, string> = {
  COMPLETED: 'Completed',
  INCOMPLETE: 'Incomplete',
  MISSING: 'Missing',
};
const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...TRANSLATION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
];

function TranslationManager({
  domain,
  portal,
  routeLanguage,
}: {
  domain: string;
  portal: string;
  routeLanguage: string;
}) {
  const queryClient = useQueryClient();
  const canWrite = usePermission('translation_write');
  const query = useTranslationData(domain, portal, routeLanguage);
  const [state, setState] = useState<Loaded | null>(null);
  const [chosenLanguage, setChosenLanguage] = useState<string | null>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [filter, setFilter] = useState<KeyFilter>({ search: '', type: '', status: '' });
  const [spellCheck, setSpellCheck] = useState(readSpellCheck);
  const [dialog, setDialog] = useState<'add' | 'delete' | null>(null);
  const [conflict, setConflict] = useState(false);
  const [reloading, setReloading] = useState(false);
  const saver = useTranslationSave(domain, portal);
  const tasksBusy = useTaskRunnerBusy();

  const info: Translations | undefined = query.data;
  const languages = info?.languages ?? [];
  const defaultLanguage = info?.defaultLanguage ?? '';
  const language =
    chosenLanguage ?? (languages.includes(routeLanguage) ? routeLanguage : defaultLanguage || routeLanguage);
  // The header's language switch (a new route language) wins over the screen's own choice.
  useEffect(() => setChosenLanguage(null), [routeLanguage]);
  // Presence is about the selected language's file (the others change only with key adds and deletes).
  const presencePath = info && language ? translationPath(info, language) : null;
  const presence = usePresence(domain, portal, presencePath);

  const changes = useMemo(() => (state ? unsavedChanges(state.baseline, state.draft) : null), [state]);
  const dirty = !!changes && hasUnsavedChanges(changes);
  const dirtyKeys = useMemo(() => (changes ? changedKeys(changes) : new Set<string>()), [changes]);

  // Freshly loaded files are taken over unless the user has unsaved changes (those stay, with the
  // versions they started from: a save then meets the conflict dialog, never overwrites silently).
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    if (!info) return;
    if (dirtyRef.current) return;
    setState({ baseline: info.data, draft: info.data, versions: info.versions });
  }, [info]);

  const statusQuery = useQuery({
    queryKey: translationKeys.status(domain, portal, language),
    queryFn: () => getTranslationStatus(domain, portal, language),
    enabled: !!info && languages.includes(language),
    retry: false,
  });
  const statusFailed = statusQuery.isError;
  useEffect(() => {
    if (statusFailed) toasts.danger(MSG.statusFailed, undefined, { closeButton: true });
  }, [statusFailed]);

  const languageQuery = useQuery({
    queryKey: translationKeys.language(language),
    queryFn: () => getLanguage(language),
    enabled: !!language,
    staleTime: Infinity,
    retry: false,
  });
  const languageFailed = languageQuery.isError;
  useEffect(() => {
    if (languageFailed) toasts.warning(MSG.languageFailed(language));
  }, [languageFailed]);
  const dir = languageDirection(language, languageQuery.data);
  const defaultDir = languageDirection(defaultLanguage);

  const draft = state?.draft;
  // The same array while the set of keys does not change (value edits keep it).
  const allKeys = useMemo(() => (draft ? unionKeys(draft) : []), [draft]);
  // The key list's search compares against lower-cased keys built once per key set.
  const index = useMemo(() => indexKeys(allKeys), [allKeys]);
  const existing = useMemo(() => new Set(allKeys), [allKeys]);

  const serverStatus = statusQuery.data?.keys;
  const statusOf = useCallback(
    (key: string): KeyStatus | undefined => {
      if (!draft) return undefined;
      const server = serverStatus?.[key];
      if (server && !dirtyKeys.has(key)) return server;
      return computeKeyStatus(draft, defaultLanguage, languages, language, key);
    },
    [draft, serverStatus, dirtyKeys, defaultLanguage, languages, language],
  );
  const visibleKeys = useMemo(
    () => filterKeys(index, filter, (key) => statusOf(key)?.status),
    [index, filter, statusOf],
  );
  const isUnsaved = useCallback(
    (key: string) => !!changes?.keyChanges.has(key) && existing.has(key),
    [changes, existing],
  );

  const key = selectedKey && existing.has(selectedKey) ? selectedKey : null;

  // ---------------------------------------------------------------------------
  // Saving, switching and leaving

  async function save(): Promise<boolean> {
    if (!state || !canWrite) return false;
    const snapshot = state.draft;
    const outcome = await saver.save(snapshot, state.versions, language);
    if (outcome.ok) {
      setState((s) => (s ? { baseline: snapshot, draft: s.draft, versions: outcome.versions } : s));
      return true;
    }
    if (outcome.conflict) setConflict(true);
    return false;
  }
  const saveRef = useRef(save);
  saveRef.current = save;

  /** True when the user may go on (no changes, accepted and saved, or nothing to ask). */
  const confirmLeave = useCallback(async (): Promise<boolean> => {
    if (!dirtyRef.current || !canWrite) return true;
    const accepted = await toasts.prompt(MSG.unsavedQuestion, { title: MSG.unsavedTitle });
    if (!accepted) return false;
    return saveRef.current();
  }, [canWrite]);

  async function switchLanguage(next: string) {
    if (next === language) return;
    if (await confirmLeave()) setChosenLanguage(next);
  }

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && canWrite && currentLocation.pathname !== nextLocation.pathname,
  );
  const blockerState = blocker.state;
  useEffect(() => {
    if (blockerState !== 'blocked') return;
    let active = true;
    void confirmLeave().then((go) => {
      if (!active) return;
      if (go) blocker.proceed?.();
      else blocker.reset?.();
    });
    return () => {
      active = false;
    };
  }, [blockerState]);

  useEffect(() => {
    if (!dirty || !canWrite) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, canWrite]);

  async function reloadAfterConflict(reapply: boolean) {
    setReloading(true);
    try {
      const fresh = await queryClient.fetchQuery({
        queryKey: translationKeys.data(domain, portal),
        queryFn: () => getTranslations(domain, portal),
        staleTime: 0,
      });
      setState((s) =>
        s && reapply
          ? { baseline: fresh.data, draft: reapplyChanges(fresh.data, s.baseline, s.draft), versions: fresh.versions }
          : { baseline: fresh.data, draft: fresh.data, versions: fresh.versions },
      );
      setConflict(false);
    } catch (error) {
      toasts.show({ type: 'DANGER', title: MSG.loadFailed(language), message: toApiError(error).errorMessage });
    } finally {
      setReloading(false);
    }
  }

  // ---------------------------------------------------------------------------
  // Key and value edits

  const edit = (change: (d: TranslationData) => TranslationData) => {
    setState((s) => (s ? { ...s, draft: change(s.draft) } : s));
    presence.markEditing();
  };

  function addKey(stored: string) {
    edit((d) => addKeyToDraft(d, languages, stored));
    setSelectedKey(stored);
    toasts.success(MSG.keyAdded(shownKey(stored)));
  }

  function deleteKey() {
    if (!key) return;
    edit((d) => deleteKeyFromDraft(d, key));
    setSelectedKey(null);
    setDialog(null);
    toasts.success(MSG.keyDeleted(shownKey(key)));
  }

  function setSpell(on: boolean) {
    setSpellCheck(on);
    try {
      window.localStorage.setItem(SPELL_CHECK_STORAGE_KEY, String(on));
    } catch {
      // storage unavailable: the choice lasts for this screen
    }
  }

  // ---------------------------------------------------------------------------

  if (query.isError && !info)
    return (
      <PageFrame title={MSG.title}>
        <LoadError title={MSG.loadFailed(language)} error={query.error} onRetry={() => void query.refetch()} />
      </PageFrame>
    );
  if (!info || !state) {
    return (
      <PageFrame title={MSG.title}>
        <Loading label="Loading translations" />
      </PageFrame>
    );
  }
  if (info.languageMode && info.languageMode !== 'TRANSLATION')
    return (
      <PageFrame title={MSG.title}>
        <Alert severity="info" role="alert">
          {MSG.notTranslationMode}
        </Alert>
      </PageFrame>
    );

  const isDefault = language === defaultLanguage;
  const value = key ? (state.draft[language]?.[key] ?? '') : '';
  const defaultValue = key ? (state.draft[defaultLanguage]?.[key] ?? '') : '';

  return (
    <PageFrame title={MSG.title}>
      <PresenceBar domain={domain} portal={portal} path={presencePath} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'stretch' }}>
        <Card variant="outlined" sx={{ p: 2, minWidth: 240, width: { md: 380 }, flexShrink: 0 }}>
          <Stack spacing={1.5}>
            <SelectField
              label="Language"
              value={language}
              onChange={(next) => void switchLanguage(next)}
              options={languages.map((code) => ({
                value: code,
                label: code === defaultLanguage ? `${languageLabel(code)} (default)` : languageLabel(code),
              }))}
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
                <Button startIcon={<AddIcon />} variant="outlined" onClick={() => setDialog('add')}>
                  Add key
                </Button>
                <Button
                  startIcon={<DeleteOutlineIcon />}
                  variant="outlined"
                  color="error"
                  disabled={!key}
                  onClick={() => setDialog('delete')}
                >
                  Delete key
                </Button>
              </Stack>
            )}
            <Typography variant="body2" color="text.secondary" aria-live="polite">
              {`${visibleKeys.length} of ${allKeys.length} keys`}
            </Typography>
            <KeyList
              keys={visibleKeys}
              selected={key}
              onSelect={setSelectedKey}
              statusOf={statusOf}
              valueOf={(k) => state.draft[language]?.[k]}
              isUnsaved={isUnsaved}
            />
          </Stack>
        </Card>

        <Card variant="outlined" sx={{ p: 2, flex: 1, minWidth: 0 }}>
          <Stack spacing={2}>
            <Box>
              <Typography variant="h6" component="h2">
                {MSG.currentLanguage}
              </Typography>
              <Typography color="text.secondary">
                {languageLabel(language)}
                {isDefault ? ' (default)' : ''}
              </Typography>
            </Box>
            {(saver.saving || tasksBusy) && <Loading label={MSG.pleaseWait} />}
            {key ? (
              <>
                <Typography variant="subtitle1" component="h3" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                  {shownKey(key)}
                </Typography>
                <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2}>
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <ValueEditor
                      // One editor per key and language: undo history never crosses keys.
                      key={`${language}/${key}`}
                      translationKey={key}
                      value={value}
                      onChange={canWrite ? (next) => edit((d) => setDraftValue(d, language, key, next)) : undefined}
                      readOnly={!canWrite}
                      dir={dir}
                      spellCheck={spellCheck}
                      label="Translation value"
                      domain={domain}
                      portal={portal}
                    />
                  </Box>
                  {!isDefault && (
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
                        {`${MSG.defaultLanguageValue}: ${languageLabel(defaultLanguage)}`}
                      </Typography>
                      <ValueEditor
                        key={`${defaultLanguage}/${key}`}
                        translationKey={key}
                        value={defaultValue}
                        readOnly
                        dir={defaultDir}
                        label="Default language value"
                        domain={domain}
                        portal={portal}
                      />
                    </Box>
                  )}
                </Stack>
              </>
            ) : (
              <Typography color="text.secondary">{MSG.selectKey}</Typography>
            )}
            <FormControlLabel
              control={<Checkbox checked={spellCheck} onChange={(e) => setSpell(e.target.checked)} />}
              label="Spell check"
            />
            <Stack direction="row" spacing={1}>
              <Button variant="contained" disabled={!dirty || !canWrite || saver.saving} onClick={() => void save()}>
                Save
              </Button>
              <Button
                disabled={!dirty || saver.saving}
                onClick={() => setState((s) => (s ? { ...s, draft: s.baseline } : s))}
              >
                Cancel
              </Button>
            </Stack>
          </Stack>
        </Card>
      </Stack>

      <AddKeyDialog open={dialog === 'add'} existing={existing} onAdd={addKey} onClose={() => setDialog(null)} />
      <ConfirmDialog
        open={dialog === 'delete' && !!key}
        title={MSG.deleteKeyTitle}
        message={MSG.deleteKeyQuestion(key ? shownKey(key) : '')}
        confirmLabel="Delete"
        danger
        onConfirm={deleteKey}
        onClose={() => setDialog(null)}
      />
      <ConflictDialog
        open={conflict}
        busy={reloading}
        onCancel={() => setConflict(false)}
        onReapply={() => void reloadAfterConflict(true)}
        onDiscard={() => void reloadAfterConflict(false)}
      />
    </PageFrame>
  );
}
