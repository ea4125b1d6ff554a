import { z } from 'zod';
import { FormDialog } from '../../ui/FormDialog';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { alphanumericNameError } from './validation';

interface Props {
  open: boolean;
  title: string;
  label: string;
  submitLabel: string;
  initialName?: string;
  /** The name's rule: its message, or null when the name passes (default: alphanumeric, at most 100 characters). */
  validate?: (name: string) => string | null | undefined;
  /** Sends the trimmed name; resolve closes the dialog, reject shows the error in it (useAction's submit). */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}

/**
 * A dialog asking for one name with a rule (spec 1 §5.3): create or rename a domain, a
 * category or a template. A rename offers its button once the name changed.
 */
export function NameDialog({
  open,
  title,
  label,
  submitLabel,
  initialName = '',
  validate = alphanumericNameError,
  onSubmit,
  onClose,
}: Props) {
  const schema = z.object({
    name: z.string().superRefine((value, ctx) => {
      const message = validate(value);
      if (message) ctx.addIssue({ code: 'custom', message });
      else if (initialName !== '' && value.trim() === initialName.trim()) ctx.addIssue({ code: 'custom', message: '' });
    }),
  });
  return (
    <FormDialog
      open={open}
      title={title}
      schema={schema}
      defaultValues={{ name: initialName }}
      submitLabel={submitLabel}
      maxWidth="xs"
      onSubmit={(values) => onSubmit(values.name.trim())}
      onClose={onClose}
    >
      {(form) => <ValidatedTextField name="name" control={form.control} label={label} required autoFocus />}
    </FormDialog>
  );
}
