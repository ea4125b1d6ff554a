/**
 * One field per widget property, by its editor type (spec 2 §2 "Other field widgets"): the
 * field widget library (rich text, link manager, page selector, asset/image pickers,
 * translation selector), Ace for JSON and nested sub-forms for SubEditor.
 */
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import LinkIcon from '@mui/icons-material/Link';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Id } from '../../api/portal';
import { Loading } from '../../ui/Loading';
import { SelectField } from '../../ui/SelectField';
import { useEditorTheme } from '../editors/useEditorTheme';
import { ImagePicker, LinkManagerDialog, PageSelector } from '../widgets';
import { RichTextEditor } from '../widgets/richtext/RichTextEditor';
import { TranslationSelector } from '../widgets/translation/TranslationSelector';
import { asList, moveItem, newItem, type PropertyField } from './properties';
import { EDITOR_MAX_HEIGHT } from './settings';

const AceField = lazy(() => import('../editors/AceField'));

export interface FieldContext {
  domain: Id;
  portal: Id;
  /** The language whose translation values the selectors edit. */
  language: string;
  readOnly: boolean;
  /** A translation value edited in the dialog (posted to the frame at once). */
  onTranslationPreview?: (key: string, value: string) => void;
}

interface FieldProps {
  field: PropertyField;
  value: unknown;
  onChange: (value: unknown) => void;
  ctx: FieldContext;
  /** Prefix of the accessible names inside a SubEditor item ('Cards 2 '). */
  namePrefix?: string;
}

const asText = (v: unknown) =>
  typeof v === 'string' ? v : v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function PropertyFieldView({ field, value, onChange, ctx, namePrefix = '' }: FieldProps) {
  const label = `${namePrefix}${field.label}`;
  const { readOnly } = ctx;
  switch (field.editor) {
    case 'CheckBox':
      return (
        <FormControlLabel
          control={
            <Checkbox checked={value === true || value === 'true'} onChange={(e) => onChange(e.target.checked)} />
          }
          label={label}
          disabled={readOnly}
        />
      );
    case 'ColorInput':
      return <ColorField label={label} value={asText(value)} onChange={onChange} readOnly={readOnly} />;
    case 'DropDown':
      return (
        <SelectField
          label={label}
          value={asText(value)}
          onChange={onChange}
          options={field.options.map(([v, l]) => ({ value: v, label: l }))}
          disabled={readOnly}
        />
      );
    case 'RichTextInput':
      return (
        <Box>
          <Typography variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Box sx={{ maxHeight: EDITOR_MAX_HEIGHT, overflow: 'auto' }}>
            <RichTextEditor
              value={asText(value)}
              onChange={(v) => onChange(v)}
              readOnly={readOnly}
              ariaLabel={label}
              minHeight={80}
            />
          </Box>
        </Box>
      );
    case 'AssetManager':
      return (
        <ImagePicker
          domainId={ctx.domain}
          portalId={ctx.portal}
          value={asText(value)}
          onChange={(path) => onChange(path)}
          label={label}
          disabled={readOnly}
        />
      );
    case 'LinkManager':
      return <LinkField label={label} value={asText(value)} onChange={onChange} ctx={ctx} />;
    case 'PageSelector':
      return (
        <PageSelector
          domainId={ctx.domain}
          portalId={ctx.portal}
          variant="dropdown"
          label={label}
          value={asText(value) || null}
          onChange={(page) => onChange(page?.id ?? '')}
          disabled={readOnly}
        />
      );
    case 'TranslationSelector':
      return (
        <TranslationSelector
          domain={ctx.domain}
          portal={ctx.portal}
          language={ctx.language}
          value={asText(value)}
          onChange={(key) => onChange(key)}
          onPreview={ctx.onTranslationPreview}
          label={label}
          disabled={readOnly}
        />
      );
    case 'JsonEditor':
      return <JsonField label={label} value={value} onChange={onChange} readOnly={readOnly} />;
    case 'SubEditor':
      return <SubEditorField field={field} label={label} value={value} onChange={onChange} ctx={ctx} />;
    case 'TextInput':
    default:
      return (
        <TextField
          size="small"
          fullWidth
          label={label}
          value={asText(value)}
          onChange={(e) => onChange(e.target.value)}
          slotProps={{ input: { readOnly } }}
          helperText={field.description}
        />
      );
  }
}

function ColorField({
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
  const valid = /^#[0-9a-fA-F]{6}$/.test(value);
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

function LinkField({
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
function JsonField({
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
  const [text, setText] = useState(() => JSON.stringify(value ?? {}, null, 2));
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    // A value from outside (another widget chosen, a reload) replaces the text unless it is the same data.
    setText((current) => {
      try {
        if (JSON.stringify(JSON.parse(current)) === JSON.stringify(value ?? {})) return current;
      } catch {
        // The text being typed is not JSON yet: keep it.
        return current;
      }
      return JSON.stringify(value ?? {}, null, 2);
    });
  }, [value]);
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Box sx={{ height: EDITOR_MAX_HEIGHT, '& .ace_editor': { height: `${EDITOR_MAX_HEIGHT}px !important` } }}>
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

function SubEditorField({
  field,
  label,
  value,
  onChange,
  ctx,
}: {
  field: PropertyField;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  ctx: FieldContext;
}) {
  const items = asList(value);
  const set = (next: Record<string, unknown>[]) => onChange(next);
  return (
    <Box role="group" aria-label={label}>
      <Typography variant="subtitle2">{label}</Typography>
      <Stack spacing={1} sx={{ mt: 0.5 }}>
        {items.map((item, index) => {
          const itemName = `${label} ${index + 1}`;
          return (
            <Paper key={index} variant="outlined" sx={{ p: 1 }} role="group" aria-label={itemName}>
              <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
                <Typography variant="caption" sx={{ flex: 1 }}>
                  {itemName}
                </Typography>
                <IconButton
                  size="small"
                  aria-label={`Move ${itemName} up`}
                  disabled={ctx.readOnly || index === 0}
                  onClick={() => set(moveItem(items, index, index - 1))}
                >
                  <ArrowUpwardIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`Move ${itemName} down`}
                  disabled={ctx.readOnly || index === items.length - 1}
                  onClick={() => set(moveItem(items, index, index + 1))}
                >
                  <ArrowDownwardIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={`Remove ${itemName}`}
                  disabled={ctx.readOnly}
                  onClick={() => set(items.filter((_, i) => i !== index))}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </Stack>
              <Stack spacing={1.5}>
                {field.properties.map((sub) => (
                  <PropertyFieldView
                    key={sub.name}
                    field={sub}
                    value={item[sub.name]}
                    ctx={ctx}
                    namePrefix={`${itemName} `}
                    onChange={(v) => set(items.map((it, i) => (i === index ? { ...it, [sub.name]: v } : it)))}
                  />
                ))}
              </Stack>
            </Paper>
          );
        })}
        <Button
          size="small"
          startIcon={<AddIcon />}
          disabled={ctx.readOnly}
          onClick={() => set([...items, newItem(field.properties)])}
        >
          {`Add ${label}`}
        </Button>
      </Stack>
    </Box>
  );
}
