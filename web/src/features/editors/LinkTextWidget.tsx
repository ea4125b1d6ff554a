import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { getTemplate, type WidgetProps } from '@rjsf/utils';
import { isValidLink } from './jsonValidation';
import { EDITOR_MESSAGES } from './messages';

export type AssetKind = 'image' | 'document';

/** What the JSON editor hands its widgets (rjsf formContext). */
export interface JsonFormContext {
  /** Opens the file explorer's picker; resolves the chosen asset path, or null when cancelled. */
  pickAsset?: (kind: AssetKind) => Promise<string | null>;
}

type MediaType = 'image' | 'document' | 'link';

/** The mediaType of a schema's `links: [{mediaType}]` (spec 2 §3), or null. */
export function linkMediaType(schema: unknown): MediaType | null {
  const links = (schema as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) return null;
  const type = (links[0] as { mediaType?: unknown } | undefined)?.mediaType;
  return type === 'image' || type === 'document' || type === 'link' ? type : null;
}

/**
 * rjsf's TextWidget, plus the portal's link fields: an image or document field gets a
 * 'Choose…' button that opens the asset picker; a link (or any link field without a picker) a
 * URL input with a hint when the value is not a URL or path.
 */
export function LinkTextWidget(props: WidgetProps) {
  const {
    id,
    label,
    value,
    required,
    disabled,
    readonly,
    rawErrors,
    schema,
    options,
    registry,
    onChange,
    onBlur,
    onFocus,
  } = props;
  const mediaType = linkMediaType(schema);
  if (!mediaType) {
    const BaseInputTemplate = getTemplate('BaseInputTemplate', registry, options);
    return <BaseInputTemplate {...props} />;
  }
  const pickAsset = (registry.formContext as JsonFormContext | undefined)?.pickAsset;
  const text = typeof value === 'string' ? value : '';
  const badLink = !isValidLink(text);
  const fieldError = rawErrors?.[0];
  const set = (next: string) => onChange(next === '' ? options.emptyValue : next);

  async function choose(kind: AssetKind) {
    if (!pickAsset) return;
    const picked = await pickAsset(kind);
    if (picked !== null) set(picked);
  }

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextField
        id={id}
        label={label}
        value={text}
        required={required}
        disabled={disabled || readonly}
        type={mediaType === 'link' || !pickAsset ? 'url' : 'text'}
        size="small"
        fullWidth
        error={badLink || !!fieldError}
        helperText={badLink ? EDITOR_MESSAGES.invalidUrl : undefined}
        onChange={(e) => set(e.target.value)}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
      />
      {pickAsset && mediaType !== 'link' && (
        <Button
          variant="outlined"
          onClick={() => void choose(mediaType)}
          disabled={disabled || readonly}
          aria-label={`${EDITOR_MESSAGES.choose} ${label}`}
        >
          {EDITOR_MESSAGES.choose}
        </Button>
      )}
    </Stack>
  );
}
