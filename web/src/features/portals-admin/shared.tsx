/**
 * Pieces shared by the portal management screens: the error toast with the spec's titles, the
 * comment dialog of activate / deactivate / delete (spec 3 §4 "Portal status") and the name
 * dialog with a rule. The route parameters of the portal module live in
 * core/usePortalParams.
 */
import DialogContentText from '@mui/material/DialogContentText';
import { z } from 'zod';
import { toApiError } from '../../api/errors';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { MESSAGES } from '../../lib/validation';
import { NameDialog } from '../admin';
import { FormDialog } from '../../ui/FormDialog';
import { requiredField } from '../../ui/schemas';
import { ValidatedTextField } from '../../ui/ValidatedTextField';

/** A danger toast titled with the spec's message, carrying the server's message (spec 1 §8). */
export function failureToast(title: string, error: unknown): void {
  toasts.danger(toApiError(error).errorMessage, title, { timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS, closeButton: true });
}

interface CommentDialogProps {
  open: boolean;
  title: string;
  text: string;
  submitLabel: string;
  danger?: boolean;
  /** Sends the trimmed comment; resolve closes the dialog, reject shows the error in it (useAction's submit). */
  onSubmit: (comment: string) => Promise<unknown>;
  onClose: () => void;
}

const commentSchema = z.object({ comment: requiredField() });

/** Asks for the comment (required) an activate, deactivate or delete records; a double click sends one request. */
export function CommentDialog({ open, title, text, submitLabel, danger, onSubmit, onClose }: CommentDialogProps) {
  return (
    <FormDialog
      open={open}
      title={title}
      schema={commentSchema}
      defaultValues={{ comment: '' }}
      submitLabel={submitLabel}
      danger={danger}
      onSubmit={(values) => onSubmit(values.comment.trim())}
      onClose={onClose}
    >
      {(form) => (
        <>
          <DialogContentText>{text}</DialogContentText>
          <ValidatedTextField
            name="comment"
            control={form.control}
            label="Comment"
            required
            autoFocus
            multiline
            minRows={2}
            sx={{ mt: 1 }}
          />
        </>
      )}
    </FormDialog>
  );
}

interface NameDialogProps {
  open: boolean;
  title: string;
  label: string;
  submitLabel: string;
  initialName?: string;
  /** The rule's message, or null when the name passes. */
  validate: (name: string) => string | null;
  /** Sends the name; resolve closes the dialog, reject shows the error in it. */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}

/** One name with a rule: category and template create / rename (the admin name dialog). */
export function RuleNameDialog({ validate, ...props }: NameDialogProps) {
  return (
    <NameDialog {...props} validate={(name) => (name.trim() === '' ? MESSAGES.fieldRequired : validate(name.trim()))} />
  );
}
