/**
 * The editor of one translation value, by key type (spec 2 §3): text keys (TXT_) in the rich-text
 * editor, image keys (IMG_) as an asset path chosen with the asset picker (images), link keys
 * (LNK_) as a link edited in the link manager. The values of a portal with nested locale files
 * are plain text (what the files hold, written back as typed), in a text field.
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import type { Id } from '../../api/portal';
import { keyType, type TranslationLayout } from '../../api/translations';
import { AssetPicker } from '../assets';
import { assetLink, LinkManagerDialog, RichTextEditor } from '../widgets';
import { TRANSLATION_MESSAGES } from './messages';
import { useTranslationLayout } from './useTranslationData';

export interface ValueEditorProps {
  /** The translation key (its prefix picks the editor). */
  translationKey: string;
  value: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  dir?: 'ltr' | 'rtl';
  spellCheck?: boolean;
  /** The accessible name of the value's field. */
  label: string;
  domain: Id;
  portal: Id;
  /** The portal's layout; by default the one of its translations as last read. */
  layout?: TranslationLayout;
}

export function ValueEditor(props: ValueEditorProps) {
  const read = useTranslationLayout(props.domain, props.portal);
  const layout = props.layout ?? read;
  if (layout === 'nested') return <PlainTextValue {...props} />;
  const type = keyType(props.translationKey, layout);
  if (type === 'IMG') return <ImageValue {...props} />;
  if (type === 'LNK') return <LinkValue {...props} />;
  return (
    <RichTextEditor
      value={props.value}
      onChange={props.onChange}
      readOnly={props.readOnly}
      dir={props.dir}
      spellCheck={props.spellCheck}
      ariaLabel={props.label}
    />
  );
}

function PlainTextValue({ value, onChange, readOnly, dir, spellCheck, label }: ValueEditorProps) {
  return (
    <TextField
      size="small"
      fullWidth
      multiline
      minRows={3}
      label={label}
      value={value}
      onChange={(e) => onChange?.(e.target.value)}
      slotProps={{ htmlInput: { dir, readOnly, spellCheck } }}
      helperText={TRANSLATION_MESSAGES.plainTextHelp}
    />
  );
}

function ImageValue({ value, onChange, readOnly, dir, label, domain, portal }: ValueEditorProps) {
  const [picking, setPicking] = useState(false);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextField
        size="small"
        fullWidth
        label={label}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        slotProps={{ htmlInput: { dir, readOnly } }}
        helperText="The image's asset path"
      />
      {!readOnly && (
        <Button variant="outlined" onClick={() => setPicking(true)} sx={{ whiteSpace: 'nowrap' }}>
          Select Image
        </Button>
      )}
      {picking && (
        <AssetPicker
          domain={domain}
          portal={portal}
          variant="image"
          onSelect={(assets) => {
            setPicking(false);
            if (assets[0]) onChange?.(assetLink(assets[0].path));
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </Stack>
  );
}

function LinkValue({ value, onChange, readOnly, dir, label, domain, portal }: ValueEditorProps) {
  const [editing, setEditing] = useState(false);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextField
        size="small"
        fullWidth
        label={label}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        slotProps={{ htmlInput: { dir, readOnly } }}
        helperText="The link's URL or target"
      />
      {!readOnly && (
        <Button variant="outlined" onClick={() => setEditing(true)} sx={{ whiteSpace: 'nowrap' }}>
          Edit link
        </Button>
      )}
      {editing && (
        <LinkManagerDialog
          open
          value={value}
          domainId={domain}
          portalId={portal}
          onSave={(next) => {
            setEditing(false);
            onChange?.(next);
          }}
          onClose={() => setEditing(false)}
        />
      )}
    </Stack>
  );
}
