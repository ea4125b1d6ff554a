/**
 * Add a translation key (spec 2 §5): the key must begin with txt, lnk or img (else the warning
 * toast 'There is no translation key for this widget'); a duplicate, compared upper case, is
 * refused with "Translation key '{key}' already exists". Keys are stored upper case.
 *
 * In a portal with nested locale files (layout 'nested') a key is the dotted path of its levels
 * ('nav.contact'), kept as written: no prefix, no empty level, not below a key that holds a text
 * nor above existing keys (a key is a text or a group of keys).
 */
import { z } from 'zod';
import { ApiError } from '../../api/errors';
import { hasKnownPrefix, shownKey, storedKey, type TranslationLayout } from '../../api/translations';
import { toasts } from '../../core/toastService';
import { FormDialog } from '../../ui/FormDialog';
import { requiredField } from '../../ui/schemas';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { usePortalParams } from '../../core/usePortalParams';
import { TRANSLATION_MESSAGES } from './messages';
import { useTranslationLayout } from './useTranslationData';
import { TRANSLATION_KEY } from '../../lib/rules.generated';

const KEY_BODY = TRANSLATION_KEY;
const schema = z.object({ key: requiredField() });

/** Why a key cannot be added ('' when it can); warning toasts for the spec's cases. */
export function checkNewKey(input: string, existing: ReadonlySet<string>, layout: TranslationLayout = 'flat'): string {
  if (layout === 'nested') return checkNestedKey(storedKey(input, layout), existing);
  const key = storedKey(input);
  if (!hasKnownPrefix(key)) return TRANSLATION_MESSAGES.noKeyForWidget;
  if (existing.has(key)) return TRANSLATION_MESSAGES.keyExists(shownKey(key));
  if (!KEY_BODY.test(key)) return TRANSLATION_MESSAGES.keyRule;
  return '';
}

/** Why a nested key cannot be added ('' when it can). */
function checkNestedKey(key: string, existing: ReadonlySet<string>): string {
  if (existing.has(key)) return TRANSLATION_MESSAGES.keyExists(key);
  if (key.split('.').some((level) => level === '')) return TRANSLATION_MESSAGES.nestedKeyRule;
  for (const other of existing) {
    if (key.startsWith(`${other}.`)) return TRANSLATION_MESSAGES.nestedBelowText(key, other);
    if (other.startsWith(`${key}.`)) return TRANSLATION_MESSAGES.nestedAboveKeys(key, other);
  }
  return '';
}

export interface AddKeyDialogProps {
  open: boolean;
  existing: ReadonlySet<string>;
  /** Adds the stored key (flat: upper case; nested: as written). */
  onAdd: (key: string) => void;
  onClose: () => void;
  /** The portal's layout; by default the one of the route's portal's translations as last read. */
  layout?: TranslationLayout;
}

export function AddKeyDialog({ open, existing, onAdd, onClose, layout: given }: AddKeyDialogProps) {
  const { domain, portal } = usePortalParams();
  const read = useTranslationLayout(domain, portal);
  const layout = given ?? read;
  const nested = layout === 'nested';
  return (
    <FormDialog
      open={open}
      title={TRANSLATION_MESSAGES.addKeyTitle}
      schema={schema}
      defaultValues={{ key: '' }}
      submitLabel="Add"
      maxWidth="xs"
      onSubmit={async ({ key }) => {
        const problem = checkNewKey(key, existing, layout);
        if (problem) {
          // The spec's cases are warning toasts too; the other rules show in the dialog only.
          const spec = nested
            ? problem === TRANSLATION_MESSAGES.keyExists(storedKey(key, layout))
            : problem !== TRANSLATION_MESSAGES.keyRule;
          if (spec) toasts.warning(problem);
          throw new ApiError({ httpStatus: 0, errorMessage: problem });
        }
        onAdd(storedKey(key, layout));
      }}
      onClose={onClose}
    >
      {(form) => (
        <ValidatedTextField
          name="key"
          control={form.control}
          label="Key name"
          required
          autoFocus
          helperText={
            nested
              ? 'The levels of the key joined by dots, as in the locale files (e.g. nav.contact)'
              : 'Begins with txt_, img_ or lnk_ (e.g. txt_welcome)'
          }
        />
      )}
    </FormDialog>
  );
}
