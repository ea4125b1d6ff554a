import { z } from 'zod';
import type { SizeLimits } from '../../api/assets';
import { FormDialog } from '../../ui/FormDialog';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { FOLDER_DIALOG_SIZE } from './FolderNameDialog';
import { ASSET_MESSAGES } from './messages';
import { hasAllowedName, isAllowedExtension } from './uploadRules';

/** A new file name: required, the upload name rule, an allowed extension (the server checks the same). */
export function fileNameSchema(limits: SizeLimits | undefined) {
  return z.object({
    name: z
      .string()
      .trim()
      .min(1, ASSET_MESSAGES.fileNameRequired)
      .refine(hasAllowedName, ASSET_MESSAGES.fileNameRule)
      .refine((name) => isAllowedExtension(limits, name), ASSET_MESSAGES.extensionNotAllowed),
  });
}

interface FileNameDialogProps {
  open: boolean;
  currentName: string;
  limits: SizeLimits | undefined;
  /** Sends the name; reject keeps the dialog open with the server's error. */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}

/** Rename File: the folder dialogs' shape (400x250); Submit stays off while the name is unchanged. */
export function FileNameDialog({ open, currentName, limits, onSubmit, onClose }: FileNameDialogProps) {
  return (
    <FormDialog
      open={open}
      title="Rename File"
      schema={fileNameSchema(limits)}
      defaultValues={{ name: currentName }}
      submitLabel="Submit"
      size={FOLDER_DIALOG_SIZE}
      submitDisabled={(form) => form.watch('name').trim() === currentName}
      onSubmit={(values) => onSubmit(values.name.trim())}
      onClose={onClose}
    >
      {(form) => <ValidatedTextField name="name" control={form.control} label="New file name" required autoFocus />}
    </FormDialog>
  );
}
