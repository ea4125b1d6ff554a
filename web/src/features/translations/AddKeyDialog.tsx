/**
 * Add a translation key (spec 2 §5): the key must begin with txt, lnk or img (else the warning
 * toast 'There is no translation key for this widget'); a duplicate, compared upper case, is
 * refused with "Translation key '{key}' already exists". Keys are stored upper case.
 */
import { z } from 'zod';
import { ApiError } from '../../api/errors';
import { hasKnownPrefix, shownKey, storedKey } from '../../api/translations';
import { toasts } from '../../app/toasts/toastService';
import { FormDialog } from '../../ui/FormDialog';
import { requiredField } from '../../ui/schemas';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { TRANSLATION_MESSAGES } from './messages';

const KEY_BODY = /^(TXT|IMG|LNK)_[A-Z0-9_.-]+$/;
const schema = z.object({ key: requiredField() });

/** Why a key cannot be added ('' when it can); warning toasts for the spec's cases. */
export function checkNewKey(input: string, existing: ReadonlySet<string>): string {
  const key = storedKey(input);
  if (!hasKnownPrefix(key)) return TRANSLATION_MESSAGES.noKeyForWidget;
  if (existing.has(key)) return TRANSLATION_MESSAGES.keyExists(shownKey(key));
  if (!KEY_BODY.test(key)) return TRANSLATION_MESSAGES.keyRule;
  return '';
}

export interface AddKeyDialogProps {
  open: boolean;
  existing: ReadonlySet<string>;
  /** Adds the stored (upper-case) key. */
  onAdd: (key: string) => void;
  onClose: () => void;
}

export function AddKeyDialog({ open, existing, onAdd, onClose }: AddKeyDialogProps) {
  return (
    <FormDialog
      open={open}
      title={TRANSLATION_MESSAGES.addKeyTitle}
      schema={schema}
      defaultValues={{ key: '' }}
      submitLabel="Add"
      maxWidth="xs"
      onSubmit={async ({ key }) => {
        const problem = checkNewKey(key, existing);
        if (problem) {
          if (problem !== TRANSLATION_MESSAGES.keyRule) toasts.warning(problem);
          throw new ApiError({ httpStatus: 0, errorMessage: problem });
        }
        onAdd(storedKey(key));
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
          helperText="Begins with txt_, img_ or lnk_ (e.g. txt_welcome)"
        />
      )}
    </FormDialog>
  );
}
