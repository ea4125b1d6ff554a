import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { alphanumericNameError } from './validation';

interface Props {
  open: boolean;
  title: string;
  label: string;
  submitLabel: string;
  initialName?: string;
  busy: boolean;
  /** The name's rule: its message, or null when the name passes (default: alphanumeric). */
  validate?: (name: string) => string | null | undefined;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/** A dialog asking for one name with a rule (spec 1 §5.3): create or rename a domain,
 * a category or a template. */
export function NameDialog(props: Props) {
  // Remounted on every opening so it starts from the initial name.
  return (
    <Dialog open={props.open} onClose={() => !props.busy && props.onClose()} fullWidth maxWidth="xs">
      {props.open && <NameForm {...props} />}
    </Dialog>
  );
}

function NameForm({
  title,
  label,
  submitLabel,
  initialName = '',
  busy,
  validate = alphanumericNameError,
  onSubmit,
  onClose,
}: Props) {
  const [name, setName] = useState(initialName);
  const [touched, setTouched] = useState(false);
  const error = validate(name);
  const unchanged = name.trim() === initialName.trim() && initialName !== '';

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (error || unchanged || busy) return;
    onSubmit(name.trim());
  }

  return (
    <form noValidate onSubmit={handleSubmit}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <TextField
          label={label}
          required
          autoFocus
          size="small"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          error={touched && !!error}
          helperText={(touched && error) || ' '}
          fullWidth
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={!!error || unchanged || busy}>
          {submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
}
