import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ariaDescribedByIds, getTemplate, type WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import type { Id } from '../../api/portal';
import { LinkManagerDialog } from '../widgets';
import { ImagePreview } from './ImagePreview';
import { isValidLink } from './jsonValidation';
import { EDITOR_MESSAGES } from './messages';

export type AssetKind = 'image' | 'document';

/** What the JSON editor hands its widgets (rjsf formContext). */
export interface JsonFormContext {
  /** Opens the file explorer's picker; resolves the chosen asset path, or null when cancelled. */
  pickAsset?: (kind: AssetKind) => Promise<string | null>;
  /** The portal the file belongs to: with both, link fields edit through the link manager. */
  domain?: Id;
  portal?: Id;
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
 * 'Choose…' button that opens the asset picker; a link field shows its value with an 'Edit link'
 * button that opens the link manager (spec 2 §2; without a portal in the form context, a plain
 * URL input). Any link field hints when the value is not a URL or path.
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
  // A row of a list is not a required field: no '*' on 'Highlights 1' (issue 22).
  const rowRequired = options.arrayRow ? false : required;
  if (!mediaType) {
    const BaseInputTemplate = getTemplate('BaseInputTemplate', registry, options);
    // @rjsf/mui puts aria-describedby on the TextField's root: the input itself names its messages.
    const describedBy = { 'aria-describedby': ariaDescribedByIds(id, !!schema.examples) };
    return <BaseInputTemplate {...props} required={rowRequired} slotProps={{ htmlInput: describedBy }} />;
  }
  const context = registry.formContext as JsonFormContext | undefined;
  const pickAsset = context?.pickAsset;
  const linkManager =
    mediaType === 'link' && context?.domain !== undefined && context.portal !== undefined
      ? { domain: context.domain, portal: context.portal }
      : null;
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
    <>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          id={id}
          label={label}
          value={text}
          required={rowRequired}
          disabled={disabled || readonly}
          type={mediaType === 'link' || !pickAsset ? 'url' : 'text'}
          size="small"
          fullWidth
          error={badLink || !!fieldError}
          helperText={badLink ? EDITOR_MESSAGES.invalidUrl : undefined}
          // The field's messages (the schema's errors, readiness findings) describe it.
          slotProps={{
            htmlInput: {
              'aria-describedby': [badLink ? `${id}-helper-text` : '', ariaDescribedByIds(id)].join(' ').trim(),
            },
          }}
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
        {linkManager && (
          <LinkManagerButton
            label={label}
            value={text}
            disabled={disabled || readonly}
            domain={linkManager.domain}
            portal={linkManager.portal}
            onSave={set}
          />
        )}
      </Stack>
      {mediaType === 'image' && context?.domain !== undefined && context.portal !== undefined && (
        <ImagePreview domain={context.domain} portal={context.portal} value={text} label={label} />
      )}
    </>
  );
}

/** The 'Edit link' button of a link field and its link manager dialog. */
function LinkManagerButton({
  label,
  value,
  disabled,
  domain,
  portal,
  onSave,
}: {
  label: string;
  value: string;
  disabled?: boolean;
  domain: Id;
  portal: Id;
  onSave: (value: string) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        onClick={() => setOpen(true)}
        disabled={disabled}
        aria-label={label ? `${EDITOR_MESSAGES.editLink} ${label}` : EDITOR_MESSAGES.editLink}
        sx={{ flexShrink: 0 }}
      >
        {EDITOR_MESSAGES.editLink}
      </Button>
      <LinkManagerDialog
        open={open}
        value={value}
        domainId={domain}
        portalId={portal}
        onSave={onSave}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
