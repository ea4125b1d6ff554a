import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useRef, useState, type ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { toApiError } from '../api/errors';
import { PendingButton } from './ConfirmDialog';
import AlertTitle from '@mui/material/AlertTitle';
import { ActionBusyError, ActionFailure } from './useAction';

export interface FormDialogProps<TValues extends FieldValues> {
  open: boolean;
  title: string;
  /** The form's rules (built from lib/validation through ui/schemas). */
  schema: z.ZodType<TValues, TValues>;
  defaultValues: DefaultValues<TValues>;
  submitLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  /** Submit stays disabled besides (e.g. while the form's choices load; may look at the form). */
  submitDisabled?: boolean | ((form: UseFormReturn<TValues, unknown, TValues>) => boolean);
  maxWidth?: 'xs' | 'sm' | 'md';
  /** An exact size where the spec gives one (e.g. 400x250), instead of maxWidth. */
  size?: { width: number; minHeight: number };
  /**
   * Sends the form; resolve to close the dialog, reject to keep it open with the error shown
   * in the form (useAction's submit does this).
   */
  onSubmit: (values: TValues) => Promise<unknown>;
  onClose: () => void;
  /** The fields; `form` is react-hook-form's form (pass form.control to ValidatedTextField). */
  children: (form: UseFormReturn<TValues, unknown, TValues>) => ReactNode;
}

/**
 * A dialog with a react-hook-form + zod form: submit is disabled while the form is invalid or
 * the submission runs (a double click sends one request); a server error is shown in the form.
 * The form starts afresh each time the dialog opens.
 */
export function FormDialog<TValues extends FieldValues>(props: FormDialogProps<TValues>) {
  const busy = useRef(false);
  return (
    <Dialog
      open={props.open}
      onClose={() => !busy.current && props.onClose()}
      fullWidth={!props.size}
      maxWidth={props.size ? false : (props.maxWidth ?? 'sm')}
      slotProps={
        props.size
          ? { paper: { sx: { width: props.size.width, maxWidth: '100%', minHeight: props.size.minHeight } } }
          : undefined
      }
    >
      {props.open && <FormDialogBody {...props} busy={busy} />}
    </Dialog>
  );
}

function FormDialogBody<TValues extends FieldValues>({
  title,
  schema,
  defaultValues,
  submitLabel,
  cancelLabel = 'Cancel',
  danger,
  submitDisabled,
  onSubmit,
  onClose,
  children,
  busy,
}: FormDialogProps<TValues> & { busy: { current: boolean } }) {
  const form = useForm<TValues, unknown, TValues>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'all',
  });
  const [serverError, setServerError] = useState<{ title: string | null; message: string } | null>(null);
  const [pending, setPending] = useState(false);

  const submit = form.handleSubmit(async (values) => {
    if (busy.current) return;
    busy.current = true;
    setPending(true);
    setServerError(null);
    try {
      await onSubmit(values);
      busy.current = false;
      onClose();
    } catch (error) {
      busy.current = false;
      setPending(false);
      if (error instanceof ActionFailure) {
        setServerError({ title: error.title, message: toApiError(error.error).errorMessage });
      } else if (!(error instanceof ActionBusyError)) {
        setServerError({ title: null, message: toApiError(error).errorMessage });
      }
    }
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label={title}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={1} sx={{ pt: 1 }}>
          {children(form)}
          {serverError && (
            <Alert severity="error" role="alert">
              {serverError.title && <AlertTitle>{serverError.title}</AlertTitle>}
              {serverError.message}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          {cancelLabel}
        </Button>
        <PendingButton
          type="submit"
          pending={pending}
          disabled={
            !form.formState.isValid || (typeof submitDisabled === 'function' ? submitDisabled(form) : !!submitDisabled)
          }
          color={danger ? 'error' : 'primary'}
        >
          {submitLabel}
        </PendingButton>
      </DialogActions>
    </form>
  );
}
