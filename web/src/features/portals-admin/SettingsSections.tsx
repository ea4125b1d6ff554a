/** The three cards of the settings form: Portal, Languages and Task runner. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type Dispatch, type SetStateAction } from 'react';
import type { EngineType, LanguageMode, PortalScope, PortalSettings, SupportLevel } from '../../api/portal';
import type { LookupEntry } from '../../api/lookup';
import { languageLabel } from '../../lib/languages';
import { COMMIT_RULES, type CommitMessageRule } from '../../lib/validation';
import { optionsOf, SelectField } from '../../ui/SelectField';
import { ENGINE_LABELS, LANGUAGE_MODE_LABELS, SUPPORT_LEVEL_LABELS } from '../portal';
import {
  extensionInputError,
  languageInputError,
  withExtension,
  withLanguage,
  withoutLanguage,
  type LanguageSettings,
  type SettingsErrors,
} from './model';

type TaskRunnerSettings = PortalSettings['taskRunnerSettings'];

export function PortalSection({
  values,
  setValues,
  readOnly,
  scopes,
}: {
  values: PortalSettings;
  setValues: Dispatch<SetStateAction<PortalSettings>>;
  readOnly: boolean;
  scopes: LookupEntry[];
}) {
  return (
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
          <SelectField
            label="Commit messages"
            disabled={readOnly}
            value={values.commitMessageRule ?? 'ALPHANUMERIC'}
            onChange={(rule) => setValues((v) => ({ ...v, commitMessageRule: rule as CommitMessageRule }))}
            options={Object.entries(COMMIT_RULES).map(([value, r]) => ({ value, label: r.label }))}
          />
        </Stack>
      </CardContent>
    </Card>
  );
}

export function LanguagesSection({
  ls,
  setLs,
  readOnly,
  errors,
}: {
  ls: LanguageSettings;
  setLs: (patch: Partial<LanguageSettings>) => void;
  readOnly: boolean;
  errors: SettingsErrors;
}) {
  const [newLanguage, setNewLanguage] = useState('');
  const inputError = languageInputError(newLanguage, ls.languages);

  function addLanguage() {
    if (newLanguage === '' || inputError) return;
    setLs(withLanguage(ls, newLanguage));
    setNewLanguage('');
  }

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Languages
        </Typography>
        <Stack spacing={2}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label="Languages" role="list">
            {ls.languages.map((code) => (
              <Chip
                key={code}
                role="listitem"
                data-language={code}
                label={code === ls.defaultLanguage ? `${languageLabel(code)} (default)` : languageLabel(code)}
                color={code === ls.defaultLanguage ? 'primary' : 'default'}
                onDelete={readOnly ? undefined : () => setLs(withoutLanguage(ls, code))}
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
                error={!!inputError}
                helperText={inputError ?? ' '}
              />
              <Button variant="outlined" onClick={addLanguage} disabled={newLanguage === '' || !!inputError}>
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
  );
}

export function TaskRunnerSection({
  tr,
  setTr,
  readOnly,
  errors,
}: {
  tr: TaskRunnerSettings;
  setTr: (patch: Partial<TaskRunnerSettings>) => void;
  readOnly: boolean;
  errors: SettingsErrors;
}) {
  const [newExtension, setNewExtension] = useState('');
  const inputError = extensionInputError(newExtension);

  function addExtension() {
    if (newExtension === '' || inputError) return;
    const extensions = withExtension(tr.extensions, newExtension);
    if (extensions.length !== tr.extensions.length) setTr({ extensions });
    setNewExtension('');
  }

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Task runner
        </Typography>
        <Stack spacing={2}>
          <Stack direction="row" spacing={3}>
            <FormControlLabel
              control={
                <Switch checked={tr.active} disabled={readOnly} onChange={(e) => setTr({ active: e.target.checked })} />
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
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label="Extensions" role="list">
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
                onDelete={readOnly ? undefined : () => setTr({ extensions: tr.extensions.filter((x) => x !== ext) })}
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
                error={!!inputError}
                helperText={inputError ?? ' '}
              />
              <Button variant="outlined" onClick={addExtension} disabled={newExtension === '' || !!inputError}>
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
  );
}
