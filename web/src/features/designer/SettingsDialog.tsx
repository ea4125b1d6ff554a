/** The editor settings (spec 2 §9): theme, scale, media query, border size and colour; kept locally. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useMemo, useState } from 'react';
import { SelectField } from '../../ui/SelectField';
import { ACE_THEMES, useEditorTheme } from '../editors';
import { DESIGNER_MESSAGES as MSG } from './messages';
import { BORDER_SIZES, mediaQueryOptions, SCALES, useDesignerSettings } from './settings';

export function SettingsDialog({
  open,
  onClose,
  portalJson,
  widgetQueries,
}: {
  open: boolean;
  onClose: () => void;
  portalJson: unknown;
  widgetQueries: readonly string[];
}) {
  const settings = useDesignerSettings();
  const [theme, setTheme] = useEditorTheme();
  const [colour, setColour] = useState(settings.borderColor);
  useEffect(() => setColour(settings.borderColor), [settings.borderColor]);
  const queries = useMemo(() => mediaQueryOptions(portalJson, widgetQueries), [portalJson, widgetQueries]);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{MSG.settings}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <SelectField
            label="Theme"
            value={theme}
            onChange={setTheme}
            options={ACE_THEMES.map(([value, label]) => ({ value, label }))}
          />
          <SelectField
            label="Scale"
            value={String(settings.scale)}
            onChange={(v) => settings.update({ scale: Number(v) })}
            options={SCALES.map((s) => ({ value: String(s), label: `${s}%` }))}
          />
          <SelectField
            label="Media query"
            value={settings.mediaQuery}
            onChange={(v) => settings.update({ mediaQuery: v })}
            options={queries.map(([label, value]) => ({ value, label }))}
          />
          <SelectField
            label="Border size"
            value={String(settings.borderSize)}
            onChange={(v) => settings.update({ borderSize: Number(v) })}
            options={BORDER_SIZES.map((b) => ({ value: String(b), label: b === 0 ? 'Disable' : String(b) }))}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box
              component="input"
              type="color"
              // A swatch beside the text field (the field is the accessible control).
              aria-hidden
              tabIndex={-1}
              value={settings.borderColor}
              onChange={(e: React.ChangeEvent<HTMLInputElement>) => settings.update({ borderColor: e.target.value })}
              sx={{ width: 40, height: 36, p: 0, border: 0, background: 'none' }}
            />
            <TextField
              size="small"
              fullWidth
              label="Border colour"
              value={colour}
              onChange={(e) => {
                setColour(e.target.value);
                if (/^#[0-9a-fA-F]{6}$/.test(e.target.value)) settings.update({ borderColor: e.target.value });
              }}
            />
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
