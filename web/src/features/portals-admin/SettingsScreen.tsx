import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { isFileChanged } from '../../api/client';
import { toApiError } from '../../api/errors';
import {
  portalApi,
  type EngineType,
  type LanguageMode,
  type PortalScope,
  type PortalSettings,
  type SupportLevel,
  type Versioned,
  portalKeys,
} from '../../api/portal';
import { PermissionView } from '../../app/permissions/Restricted';
import { usePermission } from '../../app/permissions/usePermission';
import { settingsInfo } from '../../app/selection/portalChain';
import { updatePortalInfo } from '../../app/selection/selectionStore';
import { PageFrame } from '../../ui/PageFrame';
import { LoadError, Loading } from '../../ui/Loading';
import { consistentSettings, describeEdit, rebaseEdit, sameJson } from './settingsEdit';
import { usePortalParams } from './shared';
import { useLookup } from '../../api/lookup';
import { ENGINE_LABELS, LANGUAGE_MODE_LABELS, SUPPORT_LEVEL_LABELS } from '../portal/format';
import { optionsOf, SelectField } from '../../ui/SelectField';
import { ActionFailure, useAction } from '../../ui/useAction';
import { languageLabel } from '../../lib/languages';
import { UpstreamSettings } from '../upstream/UpstreamSettings';
import { PresenceBar, usePresence } from '../presence';
import { LANGUAGE_CODE } from '../../lib/rules.generated';

/** The file the settings screen edits (issue 21 presence). */
const SETTINGS_FILE = 'portal.json';

export const SETTINGS_MESSAGES = {
  saved: 'Settings saved to your workspace. Commit them to share them.',
  saveFailed: 'Could not save the portal settings',
  conflictTitle: 'Portal settings changed',
  changedWhileEditing:
    'Portal settings were changed in your workspace while you were editing them (by a reload, a revert, a branch switch or another save).',
  nothingSaved: 'Nothing was saved. Your changes are still here:',
  reloadHint:
    '"Reload and reapply" loads the current settings and puts your changes on top of them, for you to check and save. "Reload and discard" loads them without your changes.',
  reloadAndReapply: 'Reload and reapply my changes',
  reloadAndDiscard: 'Reload and discard my changes',
  outOfDate: 'These settings changed in your workspace since you started editing. Saving them would be refused.',
  review: 'Reload…',
  reappliedTitle: 'Your changes were applied again on top of the current settings',
  reappliedHint: 'Check them, then Save.',
  languageCode: 'Enter a language code like en_GB.',
  languageTwice: 'The language is already in the list.',
  noLanguage: 'Add at least one language.',
  relativePath: 'Enter a folder inside the portal (no leading /, no ..).',
  extension: 'Enter an extension like .scss.',
} as const;

const reLanguage = LANGUAGE_CODE;
const reExtension = /^\.?[A-Za-z0-9]+$/;

/** The client-side twin of the server's rule for folders inside the portal. */
export function relativePathError(path: string): string | null {
  if (path === '') return null;
  const parts = path.split('/');
  if (path.startsWith('/') || path.includes('\\') || parts.includes('..') || parts[0] === '.git')
    return SETTINGS_MESSAGES.relativePath;
  return null;
}

/** Portal Settings (spec 3 §2 portal module child 'settings'): portal.json of the user's workspace. */
export default function SettingsScreen() {
  const { domain, portal, branch, opened } = usePortalParams();
  return (
    <PermissionView permission="portal_settings_read">
      {opened ? (
        <SettingsView key={`${domain}/${portal}/${branch}`} domain={domain} portal={portal} branch={branch} />
      ) : (
        // The selection chain opens the portal (the user's workspace) first; the settings are read from there.
        <PageFrame title="Portal Settings">
          <Loading label="Opening the portal" />
        </PageFrame>
      )}
    </PermissionView>
  );
}

function SettingsView({ domain, portal, branch }: { domain: string; portal: string; branch: string }) {
  const queryClient = useQueryClient();
  // The one place that knows the version of portal.json: the query holds {data, version}. Its key
  // is under the workspace's (app/selection/workspaceRefresh.ts), so Reload Now, reverts, Reset
  // and branch switches reach it; staleTime 0: coming back to the screen always reads the file.
  const queryKey = portalKeys.settings(domain, portal, branch);
  const queryFn = () => portalApi.settings(domain, portal);
  const settings = useQuery({ queryKey, queryFn, staleTime: 0 });
  const reload = () => queryClient.fetchQuery({ queryKey, queryFn, staleTime: 0 });
  return (
    <PageFrame title="Portal Settings" intro={`portal.json of your workspace on ${branch}.`}>
      <PresenceBar domain={domain} portal={portal} path={SETTINGS_FILE} />
      {settings.isPending && <Loading label="Loading settings" />}
      {settings.isError && !settings.data && (
        <LoadError
          title="Failed to load the portal settings"
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      )}
      {settings.data && (
        <SettingsForm domain={domain} portal={portal} branch={branch} server={settings.data} reload={reload} />
      )}
      <UpstreamSettings d={domain} p={portal} />
    </PageFrame>
  );
}

function normalise(s: PortalSettings): PortalSettings {
  return { ...s, scope: (s.scope ?? 'FULL').toUpperCase() as PortalScope };
}

type VersionedSettings = Versioned<PortalSettings>;
const toForm = (v: VersionedSettings): VersionedSettings => ({ data: normalise(v.data), version: v.version });
/** What identifies a version of the file: the server's version, or the content when it sent none. */
const stampOf = (v: VersionedSettings) => v.version ?? JSON.stringify(normalise(v.data));

interface Conflict {
  message: string;
}

function SettingsForm({
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
  const [values, setValues] = useState<PortalSettings>(() => normalise(server.data));
  const [seen, setSeen] = useState(() => stampOf(server));
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [reapplied, setReapplied] = useState<string[] | null>(null);
  const [newLanguage, setNewLanguage] = useState('');
  const [newExtension, setNewExtension] = useState('');
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

  const languageInputError =
    newLanguage === ''
      ? null
      : !reLanguage.test(newLanguage)
        ? SETTINGS_MESSAGES.languageCode
        : ls.languages.includes(newLanguage)
          ? SETTINGS_MESSAGES.languageTwice
          : null;
  const extensionInputError =
    newExtension === '' || reExtension.test(newExtension) ? null : SETTINGS_MESSAGES.extension;
  const errors = {
    languages: ls.languages.length === 0 ? SETTINGS_MESSAGES.noLanguage : null,
    translationsBasePath: relativePathError(ls.translationsBasePath),
    languageBasePath: relativePathError(ls.languageBasePath),
    outputPath: relativePathError(tr.outputPath),
  };
  const valid = Object.values(errors).every((e) => e === null) && ls.languages.includes(ls.defaultLanguage);

  function addLanguage() {
    if (newLanguage === '' || languageInputError) return;
    setLs({
      languages: [...ls.languages, newLanguage],
      defaultLanguage: ls.languages.length === 0 ? newLanguage : ls.defaultLanguage,
    });
    setNewLanguage('');
  }

  function removeLanguage(code: string) {
    const languages = ls.languages.filter((l) => l !== code);
    setLs({ languages, defaultLanguage: ls.defaultLanguage === code ? (languages[0] ?? '') : ls.defaultLanguage });
  }

  function addExtension() {
    if (newExtension === '' || extensionInputError) return;
    const ext = newExtension.startsWith('.') ? newExtension : `.${newExtension}`;
    if (!tr.extensions.includes(ext)) setTr({ extensions: [...tr.extensions, ext] });
    setNewExtension('');
  }

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
    success: SETTINGS_MESSAGES.saved,
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
        ? consistentSettings(normalise(rebaseEdit(base.data, values, latest.data)), latest.data)
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
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              Portal
            </Typography>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <SelectField
                label="Engine type"
                disabled={readOnly}
                value={values.engineType}
                onChange={(engineType) => setValues((v) => ({ ...v, engineType: engineType as EngineType }))}
                options={optionsOf(ENGINE_LABELS)}
              />
              <SelectField
                label="Support level"
                disabled={readOnly}
                value={values.supportLevel}
                onChange={(supportLevel) => setValues((v) => ({ ...v, supportLevel: supportLevel as SupportLevel }))}
                options={optionsOf(SUPPORT_LEVEL_LABELS)}
              />
              <SelectField
                label="Scope"
                disabled={readOnly}
                value={values.scope}
                onChange={(scope) => setValues((v) => ({ ...v, scope: scope as PortalScope }))}
                options={optionsOf(scopes)}
              />
            </Stack>
          </CardContent>
        </Card>

        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              Languages
            </Typography>
            <Stack spacing={2}>
              <Stack
                direction="row"
                spacing={1}
                useFlexGap
                sx={{ flexWrap: 'wrap' }}
                aria-label="Languages"
                role="list"
              >
                {ls.languages.map((code) => (
                  <Chip
                    key={code}
                    role="listitem"
                    data-language={code}
                    label={code === ls.defaultLanguage ? `${languageLabel(code)} (default)` : languageLabel(code)}
                    color={code === ls.defaultLanguage ? 'primary' : 'default'}
                    onDelete={readOnly ? undefined : () => removeLanguage(code)}
                  />
                ))}
              </Stack>
              {errors.languages && <Alert severity="warning">{errors.languages}</Alert>}
              {!readOnly && (
                <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                  <TextField
                    label="Language code"
                    size="small"
                    value={newLanguage}
                    placeholder="en_GB"
                    onChange={(e) => setNewLanguage(e.target.value.trim())}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        e.preventDefault();
                        addLanguage();
                      }
                    }}
                    error={!!languageInputError}
                    helperText={languageInputError ?? ' '}
                  />
                  <Button
                    variant="outlined"
                    onClick={addLanguage}
                    disabled={newLanguage === '' || !!languageInputError}
                  >
                    Add language
                  </Button>
                </Stack>
              )}
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                <SelectField
                  label="Default language"
                  disabled={readOnly || ls.languages.length === 0}
                  value={ls.languages.includes(ls.defaultLanguage) ? ls.defaultLanguage : ''}
                  onChange={(defaultLanguage) => setLs({ defaultLanguage })}
                  options={ls.languages.map((code) => ({ value: code, label: languageLabel(code) }))}
                />
                <SelectField
                  label="Language mode"
                  disabled={readOnly}
                  value={ls.languageMode}
                  onChange={(languageMode) => setLs({ languageMode: languageMode as LanguageMode })}
                  options={optionsOf(LANGUAGE_MODE_LABELS)}
                />
              </Stack>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                <TextField
                  label="Translations base path"
                  size="small"
                  fullWidth
                  disabled={readOnly}
                  value={ls.translationsBasePath}
                  onChange={(e) => setLs({ translationsBasePath: e.target.value })}
                  error={!!errors.translationsBasePath}
                  helperText={errors.translationsBasePath ?? ' '}
                />
                <TextField
                  label="Language base path"
                  size="small"
                  fullWidth
                  disabled={readOnly}
                  value={ls.languageBasePath}
                  onChange={(e) => setLs({ languageBasePath: e.target.value })}
                  error={!!errors.languageBasePath}
                  helperText={errors.languageBasePath ?? ' '}
                />
              </Stack>
            </Stack>
          </CardContent>
        </Card>

        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              Task runner
            </Typography>
            <Stack spacing={2}>
              <Stack direction="row" spacing={3}>
                <FormControlLabel
                  control={
                    <Switch
                      checked={tr.active}
                      disabled={readOnly}
                      onChange={(e) => setTr({ active: e.target.checked })}
                    />
                  }
                  label="Active"
                />
                <FormControlLabel
                  control={
                    <Switch
                      checked={tr.autoRun}
                      disabled={readOnly}
                      onChange={(e) => setTr({ autoRun: e.target.checked })}
                    />
                  }
                  label="Auto run"
                />
              </Stack>
              <Stack
                direction="row"
                spacing={1}
                useFlexGap
                sx={{ flexWrap: 'wrap' }}
                aria-label="Extensions"
                role="list"
              >
                {tr.extensions.length === 0 && (
                  <Typography variant="body2" color="text.secondary" role="listitem">
                    No extensions: every changed file triggers the tasks.
                  </Typography>
                )}
                {tr.extensions.map((ext) => (
                  <Chip
                    key={ext}
                    role="listitem"
                    label={ext}
                    onDelete={
                      readOnly ? undefined : () => setTr({ extensions: tr.extensions.filter((x) => x !== ext) })
                    }
                  />
                ))}
              </Stack>
              {!readOnly && (
                <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                  <TextField
                    label="Extension"
                    size="small"
                    value={newExtension}
                    placeholder=".scss"
                    onChange={(e) => setNewExtension(e.target.value.trim())}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        e.preventDefault();
                        addExtension();
                      }
                    }}
                    error={!!extensionInputError}
                    helperText={extensionInputError ?? ' '}
                  />
                  <Button
                    variant="outlined"
                    onClick={addExtension}
                    disabled={newExtension === '' || !!extensionInputError}
                  >
                    Add extension
                  </Button>
                </Stack>
              )}
              <TextField
                label="Output path"
                size="small"
                disabled={readOnly}
                value={tr.outputPath}
                onChange={(e) => setTr({ outputPath: e.target.value })}
                error={!!errors.outputPath}
                helperText={errors.outputPath ?? ' '}
                sx={{ maxWidth: 400 }}
              />
            </Stack>
          </CardContent>
        </Card>

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
      <Dialog
        open={!!conflict}
        onClose={() => !busy && setConflict(null)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="settings-conflict-title"
        aria-describedby="settings-conflict-text"
      >
        <DialogTitle id="settings-conflict-title">{SETTINGS_MESSAGES.conflictTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText id="settings-conflict-text" sx={{ mb: 2 }}>
            {conflict?.message}
          </DialogContentText>
          <Typography variant="subtitle2" component="p">
            {SETTINGS_MESSAGES.nothingSaved}
          </Typography>
          <ChangeLines lines={describeEdit(base.data, values)} label="Your unsaved changes" />
          <DialogContentText sx={{ mt: 2 }}>{SETTINGS_MESSAGES.reloadHint}</DialogContentText>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={() => setConflict(null)} disabled={busy}>
            Cancel
          </Button>
          <Button color="warning" onClick={() => void resolveConflict(false)} disabled={busy}>
            {SETTINGS_MESSAGES.reloadAndDiscard}
          </Button>
          <Button variant="contained" onClick={() => void resolveConflict(true)} disabled={busy}>
            {SETTINGS_MESSAGES.reloadAndReapply}
          </Button>
        </DialogActions>
      </Dialog>
    </form>
  );
}

/** A short list of changes ('Added language fr_FR'). */
function ChangeLines({ lines, label }: { lines: string[]; label?: string }) {
  if (lines.length === 0) return null;
  return (
    <Box component="ul" aria-label={label} sx={{ my: 0.5, pl: 3 }}>
      {lines.map((line) => (
        <li key={line}>
          <Typography variant="body2">{line}</Typography>
        </li>
      ))}
    </Box>
  );
}
