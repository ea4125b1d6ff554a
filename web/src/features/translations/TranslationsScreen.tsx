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
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useCallback, useEffect, useRef, useState } from 'react';
import { shownKey, type TranslationData, type Translations, type TranslationVersions } from '../../api/translations';
import { isCaptivePortal, isLimitedPortal, isUniversalPortal } from '../../core/menus';
import { PermissionView } from '../../ui/Restricted';
import { usePermission } from '../../core/usePermission';
import { useSelectionStore } from '../../core/selectionStore';
import { usePortalParams } from '../../core/usePortalParams';
import { toasts } from '../../core/toastService';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { LoadError, Loading, OpeningPortal } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { ConflictDialog } from '../editors';
import { PresenceBar, usePresence } from '../presence';
import { useTaskRunnerBusy } from '../taskrunner';
import { AddKeyDialog } from './AddKeyDialog';
import { KeyPanel } from './KeyPanel';
import { TRANSLATION_MESSAGES as MSG } from './messages';
import {
  addKeyToDraft,
  deleteKeyFromDraft,
  reapplyChanges,
  setDraftValue,
  shownLanguage,
  translationPath,
  type KeyFilter,
} from './model';
import { TranslationEditor } from './TranslationEditor';
import { useConflictReload } from './useConflictReload';
import { useDraftKeys } from './useDraftKeys';
import { useKeyArrival } from './useKeyArrival';
import { useKeyFindings } from './useKeyFindings';
import { useLanguageStatus } from './useLanguageStatus';
import { useLeaveGuard } from './useLeaveGuard';
import { useTranslationData } from './useTranslationData';
import { useTranslationSave } from './useTranslationSave';
import { useSaveShortcut } from '../../core/shortcuts';

export default function TranslationsScreen() {
  const { domain, portal, branch, language, opened } = usePortalParams();
  const selected = useSelectionStore((s) => s.portal);
  const unavailable = isLimitedPortal(selected) || isUniversalPortal(selected) || isCaptivePortal(selected);
  return (
    <PermissionView permission="translation:r">
      {!opened ? (
        <OpeningPortal title={MSG.title} />
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

interface Loaded {
  baseline: TranslationData;
  draft: TranslationData;
  versions: TranslationVersions;
}

function TranslationManager({
  domain,
  portal,
  routeLanguage,
}: {
  domain: string;
  portal: string;
  routeLanguage: string;
}) {
  const canWrite = usePermission('translation_write');
  const query = useTranslationData(domain, portal, routeLanguage);
  const [state, setState] = useState<Loaded | null>(null);
  const [chosenLanguage, setChosenLanguage] = useState<string | null>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [filter, setFilter] = useState<KeyFilter>({ search: '', type: '', status: '' });
  const [dialog, setDialog] = useState<'add' | 'delete' | null>(null);
  const [conflict, setConflict] = useState(false);
  // Enter on a key in the list: the focus goes to its value editor (a new request each time).
  const [focusRequest, setFocusRequest] = useState(0);
  const saver = useTranslationSave(domain, portal);
  const tasksBusy = useTaskRunnerBusy();

  const info: Translations | undefined = query.data;
  const languages = info?.languages ?? [];
  const defaultLanguage = info?.defaultLanguage ?? '';
  const language = shownLanguage(chosenLanguage, routeLanguage, languages, defaultLanguage);
  // The header's language switch (a new route language) wins over the screen's own choice.
  useEffect(() => setChosenLanguage(null), [routeLanguage]);
  // Presence is about the selected language's file (the others change only with key adds and deletes).
  const presencePath = info && language ? translationPath(info, language) : null;
  const presence = usePresence(domain, portal, presencePath);

  const { serverStatus, dir, defaultDir } = useLanguageStatus(
    domain,
    portal,
    language,
    defaultLanguage,
    !!info && languages.includes(language),
  );
  const { dirty, allKeys, existing, statusOf, visibleKeys, isUnsaved } = useDraftKeys({
    baseline: state?.baseline,
    draft: state?.draft,
    filter,
    serverStatus,
    defaultLanguage,
    languages,
    language,
  });

  // Freshly loaded files are taken over unless the user has unsaved changes (those stay, with the
  // versions they started from: a save then meets the conflict dialog, never overwrites silently).
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    if (!info) return;
    if (dirtyRef.current) return;
    setState({ baseline: info.data, draft: info.data, versions: info.versions });
  }, [info]);

  const key = selectedKey && existing.has(selectedKey) ? selectedKey : null;
  // The caller's readiness findings of this language's keys (issue 29).
  const readiness = useKeyFindings(domain, portal, language, presencePath, info?.layout);

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
  useSaveShortcut(() => void save(), dirty && canWrite && !saver.saving && !conflict);

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

  useLeaveGuard(dirty, canWrite, confirmLeave);
  // The Readiness screen's "Open" (?key=…&language=…) selects that language and key.
  useKeyArrival(!!state, { languages, allKeys, layout: info?.layout }, { switchLanguage, setSelectedKey, setFilter });

  const conflictReload = useConflictReload(domain, portal, language, (fresh, reapply) => {
    setState((s) =>
      s && reapply
        ? { baseline: fresh.data, draft: reapplyChanges(fresh.data, s.baseline, s.draft), versions: fresh.versions }
        : { baseline: fresh.data, draft: fresh.data, versions: fresh.versions },
    );
    setConflict(false);
  });

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

  const value = key ? (state.draft[language]?.[key] ?? '') : '';
  const defaultValue = key ? (state.draft[defaultLanguage]?.[key] ?? '') : '';

  return (
    <PageFrame title={MSG.title}>
      <PresenceBar domain={domain} portal={portal} path={presencePath} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'stretch' }}>
        <KeyPanel
          language={language}
          languages={languages}
          defaultLanguage={defaultLanguage}
          onLanguage={(next) => void switchLanguage(next)}
          filter={filter}
          setFilter={setFilter}
          canWrite={canWrite}
          selectedKey={key}
          onSelect={setSelectedKey}
          onOpen={(k) => {
            setSelectedKey(k);
            setFocusRequest((n) => n + 1);
          }}
          onAdd={() => setDialog('add')}
          onDelete={() => setDialog('delete')}
          visibleKeys={visibleKeys}
          keyCount={allKeys.length}
          statusOf={statusOf}
          valueOf={(k) => state.draft[language]?.[k]}
          isUnsaved={isUnsaved}
          markedOf={readiness.markedOf}
        />
        <TranslationEditor
          domain={domain}
          portal={portal}
          language={language}
          defaultLanguage={defaultLanguage}
          dir={dir}
          defaultDir={defaultDir}
          translationKey={key}
          value={value}
          defaultValue={defaultValue}
          canWrite={canWrite}
          busy={saver.saving || tasksBusy}
          dirty={dirty}
          saving={saver.saving}
          onChange={(k, next) => edit((d) => setDraftValue(d, language, k, next))}
          onSave={() => void save()}
          onCancel={() => setState((s) => (s ? { ...s, draft: s.baseline } : s))}
          findings={key ? readiness.findingsOf(key) : undefined}
          focusRequest={focusRequest}
        />
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
        busy={conflictReload.reloading}
        onCancel={() => setConflict(false)}
        onReapply={() => conflictReload.reload(true)}
        onDiscard={() => conflictReload.reload(false)}
      />
    </PageFrame>
  );
}
