import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { isFileChanged } from '../../api/client';
import { toApiError } from '../../api/errors';
import { useLookup } from '../../api/lookup';
import { portalApi, portalKeys, type PortalSettings } from '../../api/portal';
import { usePermission } from '../../core/usePermission';
import { settingsInfo } from '../../core/portalChain';
import { updatePortalInfo } from '../../core/selectionStore';
import { ActionFailure, useAction } from '../../ui/useAction';
import { usePresence } from '../presence';
import {
  normaliseSettings,
  SETTINGS_FILE,
  SETTINGS_MESSAGES,
  settingsErrors,
  settingsValid,
  stampOf,
  toForm,
  type VersionedSettings,
} from './model';
import { ChangeLines, SettingsConflictDialog } from './SettingsConflictDialog';
import { consistentSettings, describeEdit, rebaseEdit, sameJson } from './settingsEdit';
import { LanguagesSection, PortalSection, TaskRunnerSection } from './SettingsSections';

interface Conflict {
  message: string;
}

/** The settings form: the edit of portal.json, its save (with the version read) and its conflicts. */
export function SettingsForm({
  domain,
  portal,
  branch,
  server,
  reload,
}: {
  domain: string;
  portal: string;
  branch: string;
  /** portal.json as the workspace has it now (the settings query). */
  server: VersionedSettings;
  /** Reads portal.json again (and puts it into the settings query). */
  reload: () => Promise<VersionedSettings>;
}) {
  const queryClient = useQueryClient();
  const canWrite = usePermission('portal_settings_write');
  const scopes = useLookup('ScopeType');
  // `base` is the version the edit started from; a save sends its version (If-Match).
  const [base, setBase] = useState<VersionedSettings>(() => toForm(server));
  const [values, setValues] = useState<PortalSettings>(() => normaliseSettings(server.data));
  const [seen, setSeen] = useState(() => stampOf(server));
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [reapplied, setReapplied] = useState<string[] | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);

  const dirty = !sameJson(values, base.data);
  const stale = stampOf(server) !== stampOf(base);
  const { markEditing } = usePresence(domain, portal, SETTINGS_FILE);
  useEffect(() => {
    if (dirty) markEditing();
  }, [dirty, markEditing]);

  // The file changed in the workspace (Reload Now, a revert, Reset, a branch switch, a save
  // elsewhere): without an edit the form shows the new file; with one, the user decides.
  if (stampOf(server) !== seen) {
    setSeen(stampOf(server));
    if (stampOf(server) !== stampOf(base)) {
      if (!dirty) {
        const next = toForm(server);
        setBase(next);
        setValues(next.data);
        setReapplied(null);
      } else if (!conflict) {
        setConflict({ message: SETTINGS_MESSAGES.changedWhileEditing });
      }
    }
  }

  const ls = values.languageSettings;
  const tr = values.taskRunnerSettings;
  const setLs = (patch: Partial<PortalSettings['languageSettings']>) =>
    setValues((v) => ({ ...v, languageSettings: { ...v.languageSettings, ...patch } }));
  const setTr = (patch: Partial<PortalSettings['taskRunnerSettings']>) =>
    setValues((v) => ({ ...v, taskRunnerSettings: { ...v.taskRunnerSettings, ...patch } }));

  const errors = settingsErrors(values);
  const valid = settingsValid(values);

  function adopt(saved: VersionedSettings, next: PortalSettings = saved.data) {
    setBase(saved);
    setSeen(stampOf(saved));
    setValues(next);
  }

  // One action each: a second click while one runs sends nothing (ui/useAction).
  const saveAction = useAction({
    action: async () => {
      let result = await portalApi.saveSettings(domain, portal, values, base.version);
      // A server that sent no version with the answer: read it, so the next save has one.
      if (result.version === null) result = await reload();
      return result;
    },
    failure: SETTINGS_MESSAGES.saveFailed,
    success: (result) =>
      result.data.storedIn === 'PORTALWRIGHT' ? SETTINGS_MESSAGES.savedKept : SETTINGS_MESSAGES.saved,
    onSuccess: async (result) => {
      const saved = toForm(result);
      adopt(saved);
      setReapplied(null);
      queryClient.setQueryData(portalKeys.settings(domain, portal, branch), result);
      updatePortalInfo(portal, settingsInfo(saved.data));
      // Only now (the form holds the saved version) the workspace's views refresh: the
      // local-changes menu picks up the change, and the settings query reads what was saved.
      await queryClient.invalidateQueries({ queryKey: portalKeys.workspace(domain, portal) });
    },
  });
  /** Loads the current file; with `reapply` the user's edit is put on top of it, unsaved. */
  const resolveAction = useAction({
    action: async (reapply: boolean) => {
      const latest = toForm(await reload());
      const next = reapply
        ? consistentSettings(normaliseSettings(rebaseEdit(base.data, values, latest.data)), latest.data)
        : latest.data;
      adopt(latest, next);
      setReapplied(reapply && !sameJson(next, latest.data) ? describeEdit(latest.data, next) : null);
      setConflict(null);
    },
    failure: SETTINGS_MESSAGES.saveFailed,
  });
  const busy = saveAction.pending || resolveAction.pending;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!canWrite || !valid || !dirty) return;
    setServerError(null);
    try {
      await saveAction.submit();
    } catch (failure) {
      if (!(failure instanceof ActionFailure)) return; // already saving
      const e = failure.error;
      if (isFileChanged(e)) {
        // Someone (a reload, a revert, a branch switch, another save) changed portal.json since
        // this edit started: nothing was written. Load the current file for the user to decide.
        setConflict({ message: e.errorMessage });
        void reload().catch(() => undefined);
      } else {
        setServerError(toApiError(e).errorMessage);
      }
    }
  }

  async function resolveConflict(reapply: boolean) {
    setServerError(null);
    try {
      await resolveAction.submit(reapply);
    } catch (failure) {
      if (failure instanceof ActionFailure) setServerError(toApiError(failure.error).errorMessage);
    }
  }

  const readOnly = !canWrite;

  return (
    <form noValidate onSubmit={(e) => void save(e)} aria-label="Portal settings">
      <Stack spacing={3}>
        {readOnly && (
          <Alert severity="info">
            You can read these settings; changing them needs the permission to edit portal settings.
          </Alert>
        )}
        <PortalSection values={values} setValues={setValues} readOnly={readOnly} scopes={scopes} />
        <LanguagesSection ls={ls} setLs={setLs} readOnly={readOnly} errors={errors} />
        <TaskRunnerSection tr={tr} setTr={setTr} readOnly={readOnly} errors={errors} />

        {!readOnly && stale && dirty && !conflict && (
          <Alert
            severity="warning"
            action={
              <Button
                color="inherit"
                size="small"
                onClick={() => setConflict({ message: SETTINGS_MESSAGES.changedWhileEditing })}
              >
                {SETTINGS_MESSAGES.review}
              </Button>
            }
          >
            {SETTINGS_MESSAGES.outOfDate}
          </Alert>
        )}
        {reapplied && reapplied.length > 0 && (
          <Alert
            severity="info"
            role="status"
            aria-label={SETTINGS_MESSAGES.reappliedTitle}
            onClose={() => setReapplied(null)}
          >
            <AlertTitle>{SETTINGS_MESSAGES.reappliedTitle}</AlertTitle>
            <ChangeLines lines={reapplied} />
            {SETTINGS_MESSAGES.reappliedHint}
          </Alert>
        )}
        {serverError && (
          <Alert severity="error" role="alert">
            <strong>{SETTINGS_MESSAGES.saveFailed}</strong>: {serverError}
          </Alert>
        )}
        {!readOnly && (
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
            <Button
              disabled={!dirty || busy}
              onClick={() => {
                setValues(base.data);
                setReapplied(null);
              }}
            >
              Discard
            </Button>
            <Button type="submit" variant="contained" disabled={!valid || !dirty || busy}>
              Save
            </Button>
          </Stack>
        )}
      </Stack>
      <SettingsConflictDialog
        message={conflict?.message ?? null}
        changes={describeEdit(base.data, values)}
        busy={busy}
        onCancel={() => setConflict(null)}
        onResolve={(reapply) => void resolveConflict(reapply)}
      />
    </form>
  );
}
