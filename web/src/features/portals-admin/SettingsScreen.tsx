import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';
import {
  portalApi,
  type EngineType,
  type LanguageMode,
  type PortalScope,
  type PortalSettings,
  type SupportLevel,
} from '../../api/portal';
import { PermissionView } from '../../app/permissions/Restricted';
import { usePermission } from '../../app/permissions/usePermission';
import { toasts } from '../../app/toasts/toastService';
import { AdminPage, LoadError, Loading } from '../admin/AdminPage';
import { keys, SCOPE_LABELS, usePortalParams, workspaceKeys } from './shared';

export const SETTINGS_MESSAGES = {
  saved: 'Settings saved to your workspace. Commit them to share them.',
  saveFailed: 'Could not save the portal settings',
  languageCode: 'Enter a language code like en_GB.',
  languageTwice: 'The language is already in the list.',
  noLanguage: 'Add at least one language.',
  relativePath: 'Enter a folder inside the portal (no leading /, no ..).',
  extension: 'Enter an extension like .scss.',
} as const;

const ENGINE_TYPES: EngineType[] = ['PORTAL_ENGINE', 'JS_ENGINE', 'UNIVERSAL', 'UNKNOWN'];
const SUPPORT_LEVELS: SupportLevel[] = ['FULL', 'LIMITED'];
const LANGUAGE_MODES: LanguageMode[] = ['MULTILANGUAGE', 'SINGLE_LANGUAGE', 'TRANSLATION'];
const reLanguage = /^[a-z]{2,3}(_[A-Z]{2})?$/;
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
        <AdminPage title="Portal Settings">
          <Loading label="Opening the portal" />
        </AdminPage>
      )}
    </PermissionView>
  );
}

function SettingsView({ domain, portal, branch }: { domain: string; portal: string; branch: string }) {
  const settings = useQuery({
    queryKey: [...keys.settings(domain, portal), branch],
    queryFn: () => portalApi.settings(domain, portal),
  });
  return (
    <AdminPage title="Portal Settings" intro={`portal.json of your workspace on ${branch}.`}>
      {settings.isPending && <Loading label="Loading settings" />}
      {settings.isError && (
        <LoadError
          title="Failed to load the portal settings"
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      )}
      {settings.isSuccess && <SettingsForm domain={domain} portal={portal} branch={branch} initial={settings.data} />}
    </AdminPage>
  );
}

function normalise(s: PortalSettings): PortalSettings {
  return { ...s, scope: (s.scope ?? 'FULL').toUpperCase() as PortalScope };
}

function SettingsForm({
  domain,
  portal,
  branch,
  initial,
}: {
  domain: string;
  portal: string;
  branch: string;
  initial: PortalSettings;
}) {
  const queryClient = useQueryClient();
  const canWrite = usePermission('portal_settings_write');
  const [values, setValues] = useState<PortalSettings>(() => normalise(initial));
  const [saved, setSaved] = useState<PortalSettings>(() => normalise(initial));
  const [newLanguage, setNewLanguage] = useState('');
  const [newExtension, setNewExtension] = useState('');
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

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
  const dirty = JSON.stringify(values) !== JSON.stringify(saved);

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

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!canWrite || !valid || !dirty || busy) return;
    setBusy(true);
    setServerError(null);
    try {
      const result = normalise(await portalApi.saveSettings(domain, portal, values));
      setValues(result);
      setSaved(result);
      queryClient.setQueryData([...keys.settings(domain, portal), branch], result);
      // The local-changes menu (features/portal) picks up the new change.
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.portal(domain, portal) });
      toasts.success(SETTINGS_MESSAGES.saved, 'SUCCESS');
    } catch (e) {
      setServerError(toApiError(e).errorMessage);
    } finally {
      setBusy(false);
    }
  }

  const readOnly = !canWrite;

  return (
    <form noValidate onSubmit={(e) => void save(e)} aria-label="Portal settings">
      <Stack spacing={3}>
        {readOnly && (
          <Alert severity="info">You can read these settings; changing them needs portal_settings_write.</Alert>
        )}
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              Portal
            </Typography>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <TextField
                select
                label="Engine type"
                size="small"
                fullWidth
                disabled={readOnly}
                value={values.engineType}
                onChange={(e) => setValues((v) => ({ ...v, engineType: e.target.value as EngineType }))}
              >
                {ENGINE_TYPES.map((t) => (
                  <MenuItem key={t} value={t}>
                    {t}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label="Support level"
                size="small"
                fullWidth
                disabled={readOnly}
                value={values.supportLevel}
                onChange={(e) => setValues((v) => ({ ...v, supportLevel: e.target.value as SupportLevel }))}
              >
                {SUPPORT_LEVELS.map((t) => (
                  <MenuItem key={t} value={t}>
                    {t}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label="Scope"
                size="small"
                fullWidth
                disabled={readOnly}
                value={values.scope}
                onChange={(e) => setValues((v) => ({ ...v, scope: e.target.value as PortalScope }))}
              >
                {(Object.keys(SCOPE_LABELS) as PortalScope[]).map((s) => (
                  <MenuItem key={s} value={s}>
                    {SCOPE_LABELS[s]}
                  </MenuItem>
                ))}
              </TextField>
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
                    label={code === ls.defaultLanguage ? `${code} (default)` : code}
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
                <TextField
                  select
                  label="Default language"
                  size="small"
                  fullWidth
                  disabled={readOnly || ls.languages.length === 0}
                  value={ls.languages.includes(ls.defaultLanguage) ? ls.defaultLanguage : ''}
                  onChange={(e) => setLs({ defaultLanguage: e.target.value })}
                >
                  {ls.languages.map((code) => (
                    <MenuItem key={code} value={code}>
                      {code}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  label="Language mode"
                  size="small"
                  fullWidth
                  disabled={readOnly}
                  value={ls.languageMode}
                  onChange={(e) => setLs({ languageMode: e.target.value as LanguageMode })}
                >
                  {LANGUAGE_MODES.map((m) => (
                    <MenuItem key={m} value={m}>
                      {m}
                    </MenuItem>
                  ))}
                </TextField>
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
                  <Typography variant="body2" color="text.secondary">
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

        {serverError && (
          <Alert severity="error" role="alert">
            <strong>{SETTINGS_MESSAGES.saveFailed}</strong>: {serverError}
          </Alert>
        )}
        {!readOnly && (
          <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
            <Button disabled={!dirty || busy} onClick={() => setValues(saved)}>
              Discard
            </Button>
            <Button type="submit" variant="contained" disabled={!valid || !dirty || busy}>
              Save
            </Button>
          </Stack>
        )}
      </Stack>
    </form>
  );
}
