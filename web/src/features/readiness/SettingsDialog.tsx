/**
 * The readiness settings (portal:w): the approval gate and the budgets of readiness.json — length
 * budgets (a key pattern and a number of characters per row) and the size budget in MB.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import type { ReadinessSettings } from '../../api/readiness';
import { FormDialog } from '../../ui/FormDialog';
import { LoadError, Loading } from '../../ui/Loading';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { READINESS_MESSAGES as MSG } from './messages';
import { bytesToMb, mbToBytes } from './model';
import { useReadinessSettings } from './queries';
import { settingsSchema, type SettingsValues } from './schemas';

export function SettingsDialog({
  domain,
  portal,
  open,
  onSave,
  onClose,
}: {
  domain: string;
  portal: string;
  open: boolean;
  onSave: (settings: ReadinessSettings) => Promise<unknown>;
  onClose: () => void;
}) {
  const settings = useReadinessSettings(domain, portal, open);
  if (!open) return null;
  const data = settings.data;
  if (!data)
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="readiness-settings-title">
        <DialogTitle id="readiness-settings-title">{MSG.settingsTitle}</DialogTitle>
        <DialogContent>
          {settings.error ? (
            <LoadError title={MSG.settingsLoadFailed} error={settings.error} onRetry={() => void settings.refetch()} />
          ) : (
            <Loading label="Loading the settings" />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
        </DialogActions>
      </Dialog>
    );
  return (
    <FormDialog<SettingsValues>
      open
      title={MSG.settingsTitle}
      schema={settingsSchema}
      defaultValues={{
        gate: data.gate,
        budgets: (data.lengthBudgets ?? []).map((b) => ({ pattern: b.pattern, maxChars: String(b.maxChars) })),
        sizeMb: bytesToMb(data.sizeBudgetBytes),
      }}
      submitLabel={MSG.save}
      onSubmit={(values) =>
        onSave({
          gate: values.gate,
          lengthBudgets: values.budgets.map((b) => ({ pattern: b.pattern.trim(), maxChars: Number(b.maxChars) })),
          sizeBudgetBytes: mbToBytes(values.sizeMb),
          version: data.version,
        })
      }
      onClose={onClose}
    >
      {(form) => <SettingsFields form={form} />}
    </FormDialog>
  );
}

function SettingsFields({ form }: { form: UseFormReturn<SettingsValues, unknown, SettingsValues> }) {
  const budgets = useFieldArray({ control: form.control, name: 'budgets' });
  return (
    <Stack spacing={2}>
      <div>
        <Controller
          control={form.control}
          name="gate"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
              label={MSG.gate}
            />
          )}
        />
        <FormHelperText>{MSG.gateHelp}</FormHelperText>
      </div>
      <Stack spacing={1} component="fieldset" sx={{ border: 0, m: 0, p: 0 }}>
        <Typography component="legend" variant="subtitle1">
          {MSG.budgets}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {MSG.budgetsHelp}
        </Typography>
        {budgets.fields.length === 0 && <Typography variant="body2">{MSG.noBudgets}</Typography>}
        {budgets.fields.map((row, index) => (
          <Stack key={row.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <ValidatedTextField<SettingsValues>
              control={form.control}
              name={`budgets.${index}.pattern`}
              label={MSG.pattern}
              required
            />
            <ValidatedTextField<SettingsValues>
              control={form.control}
              name={`budgets.${index}.maxChars`}
              label={MSG.maxChars}
              required
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              sx={{ maxWidth: 160 }}
            />
            <IconButton
              aria-label={`${MSG.removeBudget} ${index + 1}`}
              onClick={() => budgets.remove(index)}
              sx={{ mt: 0.5 }}
            >
              <DeleteOutlineIcon />
            </IconButton>
          </Stack>
        ))}
        <div>
          <Button startIcon={<AddIcon />} onClick={() => budgets.append({ pattern: '', maxChars: '' })}>
            {MSG.addBudget}
          </Button>
        </div>
      </Stack>
      <ValidatedTextField<SettingsValues>
        control={form.control}
        name="sizeMb"
        label={MSG.sizeBudget}
        helperText={MSG.sizeBudgetHelp}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        sx={{ maxWidth: 240 }}
      />
    </Stack>
  );
}
