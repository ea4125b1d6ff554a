/** The property fields with an editor of their own: a colour with its swatch, a link, JSON in Ace. */
import LinkIcon from '@mui/icons-material/Link';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect, useState } from 'react';
import { Loading } from '../../ui/Loading';
import { AceField, useEditorTheme } from '../editors';
import { LinkManagerDialog } from '../widgets';
import { isHexColor, jsonText, syncedJsonText } from './properties';
import type { FieldContext } from './PropertyFields';
import { EDITOR_MAX_HEIGHT } from './settings';

export function ColorField({
  label,
  value,
  onChange,
  readOnly,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  readOnly: boolean;
}) {
  const valid = isHexColor(value);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Box
        component="input"
        type="color"
        // A swatch beside the text field (the field is the accessible control).
        aria-hidden
        tabIndex={-1}
        value={valid ? value : '#000000'}
        disabled={readOnly}
        onChange={(e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value)}
        sx={{ width: 40, height: 36, p: 0, border: 0, background: 'none' }}
      />
      <TextField
        size="small"
        fullWidth
        label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        slotProps={{ input: { readOnly } }}
      />
    </Stack>
  );
}

export function LinkField({
  label,
  value,
  onChange,
  ctx,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  ctx: FieldContext;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField size="small" fullWidth label={label} value={value} slotProps={{ input: { readOnly: true } }} />
      <Tooltip title={`Edit ${label}`}>
        <span>
          <IconButton aria-label={`Edit ${label}`} disabled={ctx.readOnly} onClick={() => setOpen(true)}>
            <LinkIcon />
          </IconButton>
        </span>
      </Tooltip>
      <LinkManagerDialog
        open={open}
        value={value}
        domainId={ctx.domain}
        portalId={ctx.portal}
        onClose={() => setOpen(false)}
        onSave={(next) => {
          onChange(next);
          setOpen(false);
        }}
      />
    </Stack>
  );
}

/** JSON in Ace (the editors' theme); the value changes only while the text is valid JSON. */
export function JsonField({
  label,
  value,
  onChange,
  readOnly,
}: {
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  readOnly: boolean;
}) {
  const [theme] = useEditorTheme();
  const [text, setText] = useState(() => jsonText(value));
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    // A value from outside (another widget chosen, a reload) replaces the text unless it is the same data.
    setText((current) => syncedJsonText(current, value));
  }, [value]);
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Box sx={{ '& .ace_editor': { height: `${EDITOR_MAX_HEIGHT}px !important` } }}>
        <Suspense fallback={<Loading label="Loading the editor" />}>
          <AceField
            value={text}
            mode="json"
            theme={theme}
            readOnly={readOnly}
            label={label}
            onChange={(next) => {
              setText(next);
              try {
                onChange(JSON.parse(next));
                setInvalid(false);
              } catch {
                setInvalid(true);
              }
            }}
          />
        </Suspense>
      </Box>
      {invalid && (
        <Typography variant="caption" color="error" role="alert">
          Wrong JSON Format
        </Typography>
      )}
    </Box>
  );
}
