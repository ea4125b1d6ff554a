/**
 * One field per widget property, by its editor type (spec 2 §2 "Other field widgets"): the
 * field widget library (rich text, link manager, page selector, asset/image pickers,
 * translation selector), Ace for JSON and nested sub-forms for SubEditor.
 */
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Id } from '../../api/portal';
import type { Finding } from '../../api/readiness';
import { SelectField } from '../../ui/SelectField';
import { FieldFindings, pointerOf } from '../readiness';
import { TranslationSelector } from '../translations';
import { ImagePicker, PageSelector, RichTextEditor, detectLinkType } from '../widgets';
import { ColorField, JsonField, LinkField } from './FieldEditors';
import {
  asList,
  asText,
  linkHref,
  linkValue,
  moveItem,
  newItem,
  withItemProperty,
  withoutItem,
  type PropertyField,
} from './properties';
import { EDITOR_MAX_HEIGHT } from './settings';

export interface FieldContext {
  domain: Id;
  portal: Id;
  /** The language whose translation values the selectors edit. */
  language: string;
  readOnly: boolean;
  /** A translation value edited in the dialog (posted to the frame at once). */
  onTranslationPreview?: (key: string, value: string) => void;
  /** Readiness findings by the pointer of the field that shows them ('/data/items/0/link'). */
  findingsAt?: ReadonlyMap<string, readonly Finding[]>;
}

interface FieldProps {
  field: PropertyField;
  value: unknown;
  onChange: (value: unknown) => void;
  ctx: FieldContext;
  /** Prefix of the accessible names inside a SubEditor item ('Cards 2 '). */
  namePrefix?: string;
  /** The field's JSON pointer in the instance file: its readiness findings show under it. */
  pointer?: string;
}

/** A property's editor with its readiness findings under it. */
export function PropertyFieldView(props: FieldProps) {
  const findings = props.pointer ? props.ctx.findingsAt?.get(props.pointer) : undefined;
  if (!findings?.length) return <FieldEditor {...props} />;
  return (
    <Box data-pointer={props.pointer}>
      <FieldEditor {...props} />
      <FieldFindings findings={findings} />
    </Box>
  );
}

function FieldEditor({ field, value, onChange, ctx, namePrefix = '', pointer }: FieldProps) {
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
      return (
        <LinkField
          label={label}
          value={linkHref(value)}
          onChange={(href) => onChange(linkValue(value, href, detectLinkType))}
          ctx={ctx}
        />
      );
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
      return (
        <SubEditorField field={field} label={label} value={value} onChange={onChange} ctx={ctx} pointer={pointer} />
      );
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

function SubEditorField({
  field,
  label,
  value,
  onChange,
  ctx,
  pointer,
}: {
  field: PropertyField;
  label: string;
  value: unknown;
  onChange: (v: unknown) => void;
  ctx: FieldContext;
  pointer?: string;
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
                  onClick={() => set(withoutItem(items, index))}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </Stack>
              <FieldFindings findings={(pointer && ctx.findingsAt?.get(`${pointer}/${index}`)) || []} />
              <Stack spacing={1.5}>
                {field.properties.map((sub) => (
                  <PropertyFieldView
                    key={sub.name}
                    pointer={pointer && `${pointer}/${index}/${pointerOf([sub.name]).slice(1)}`}
                    field={sub}
                    value={item[sub.name]}
                    ctx={ctx}
                    namePrefix={`${itemName} `}
                    onChange={(v) => set(withItemProperty(items, index, sub.name, v))}
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
