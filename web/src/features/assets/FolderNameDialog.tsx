import { z } from 'zod';
import { FormDialog } from '../../ui/FormDialog';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { ASSET_MESSAGES } from './messages';

/** A folder name: required (with the add or rename wording), no spaces (spec 2 §5). */
export function folderNameSchema(requiredMessage: string) {
  return z.object({
    name: z
      .string()
      .trim()
      .min(1, requiredMessage)
      .refine((value) => !/\s/.test(value), ASSET_MESSAGES.folderNoSpaces),
  });
}

const addSchema = folderNameSchema(ASSET_MESSAGES.folderRequired);
const renameSchema = folderNameSchema(ASSET_MESSAGES.newFolderRequired);

interface FolderNameDialogProps {
  open: boolean;
  /** 'add' a folder, or 'rename' the folder named `currentName`. */
  mode: 'add' | 'rename';
  currentName?: string;
  /** Sends the name; reject keeps the dialog open with the server's error (useAction's submit). */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}

/** Add Folder / Rename Folder (spec 2 §2: 400x250); rename's Submit stays off while the name is unchanged. */
/** The add and rename folder dialogs' size (spec 2 §9). */
export const FOLDER_DIALOG_SIZE = { width: 400, minHeight: 250 };

export function FolderNameDialog({ open, mode, currentName = '', onSubmit, onClose }: FolderNameDialogProps) {
  const rename = mode === 'rename';
  return (
    <FormDialog
      open={open}
      title={rename ? 'Rename Folder' : 'Add Folder'}
      schema={rename ? renameSchema : addSchema}
      defaultValues={{ name: rename ? currentName : '' }}
      submitLabel="Submit"
      // 400x250 (spec 2 §9).
      size={FOLDER_DIALOG_SIZE}
      submitDisabled={(form) => rename && form.watch('name').trim() === currentName}
      onSubmit={(values) => onSubmit(values.name.trim())}
      onClose={onClose}
    >
      {(form) => (
        <ValidatedTextField
          name="name"
          control={form.control}
          label={rename ? 'New folder name' : 'Folder name'}
          required
          autoFocus
        />
      )}
    </FormDialog>
  );
}
