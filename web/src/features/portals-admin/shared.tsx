import { NameDialog } from '../admin/NameDialog';
/**
 * Pieces shared by the portal management screens: query keys, the date format of the tables,
 * the error toast with the spec's titles, the route parameters of the portal module, and the
 * comment dialog of activate / deactivate / delete (spec 3 §4 "Portal status").
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { toApiError } from '../../api/errors';
import { branchFromUrl, type Id } from '../../api/portal';
import { useSelectionStore } from '../../app/selection/selectionStore';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../app/toasts/toastService';
import { MESSAGES } from '../../lib/validation';

export const keys = {
  portals: (d: Id) => ['portals-admin', String(d), 'portals'] as const,
  categories: (d: Id) => ['portals-admin', String(d), 'categories'] as const,
  templates: (d: Id) => ['portals-admin', String(d), 'templates'] as const,
  branches: (d: Id, p: Id) => ['portals-admin', String(d), 'portal', String(p), 'branches'] as const,
  activeBranch: (d: Id, p: Id) => ['portals-admin', String(d), 'portal', String(p), 'active-branch'] as const,
  settings: (d: Id, p: Id) => ['portals-admin', String(d), 'portal', String(p), 'settings'] as const,
};

/**
 * Keys of the portal workspace feature (features/portal/queries.ts) refreshed after changes
 * made here: ['portal', d, p, …] (local changes, references) and ['portals', d, …] (selector).
 */
export const workspaceKeys = {
  portal: (d: Id, p: Id) => ['portal', String(d), String(p)] as const,
  domainPortals: (d: Id) => ['portals', String(d)] as const,
};

const pad = (n: number) => String(n).padStart(2, '0');

/** 'MM/dd/y HH:mm' in local time; '' for a missing or unreadable date. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${date.getFullYear()} ${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}`;
}

/** A danger toast titled with the spec's message, carrying the server's message (spec 1 §8). */
export function failureToast(title: string, error: unknown): void {
  toasts.danger(toApiError(error).errorMessage, title, { timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS, closeButton: true });
}

/** The branch segment that stands for the portal's active branch (app/selection/portalChain). */
const ACTIVE_BRANCH_SEGMENT = '_';

/**
 * Domain, portal, branch ('/' restored) and language of a portal-module route. `opened` tells
 * whether the selection chain has opened this portal (the user's workspace exists and is on
 * `branch`); `branch` is the opened branch when the URL says '_' (the active branch).
 */
export function usePortalParams() {
  const { domain = '', portal = '', branch: segment = ACTIVE_BRANCH_SEGMENT, language = 'en_GB' } = useParams();
  const urlBranch = segment === ACTIVE_BRANCH_SEGMENT ? null : branchFromUrl(segment);
  const selected = useSelectionStore((s) => (s.portal && String(s.portal.id) === portal ? s.branch : null));
  const opened = selected !== null && (urlBranch === null || urlBranch === selected);
  return { domain, portal, branch: urlBranch ?? selected ?? '', language, opened };
}

export const TYPE_LABELS = { CREW: 'Crew', PASSENGER: 'Passenger' } as const;
export const SCOPE_LABELS = { FULL: 'Full', MICROSITE: 'Microsite', CAPTIVE: 'Captive' } as const;

export const label = <K extends string>(labels: Record<K, string>, value: string): string =>
  (labels as Record<string, string>)[value.toUpperCase()] ?? value;

interface CommentDialogProps {
  open: boolean;
  title: string;
  text: string;
  submitLabel: string;
  busy: boolean;
  danger?: boolean;
  onSubmit: (comment: string) => void;
  onClose: () => void;
}

/** Asks for the comment (required) an activate, deactivate or delete records. */
export function CommentDialog(props: CommentDialogProps) {
  return (
    <Dialog open={props.open} onClose={() => !props.busy && props.onClose()} fullWidth maxWidth="sm">
      {props.open && <CommentForm {...props} />}
    </Dialog>
  );
}

function CommentForm({ title, text, submitLabel, busy, danger, onSubmit, onClose }: CommentDialogProps) {
  const [comment, setComment] = useState('');
  const [touched, setTouched] = useState(false);
  const error = comment.trim() === '' ? MESSAGES.fieldRequired : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (error || busy) return;
    onSubmit(comment.trim());
  }

  return (
    <form noValidate onSubmit={submit}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{text}</DialogContentText>
        <TextField
          label="Comment"
          required
          autoFocus
          multiline
          minRows={2}
          size="small"
          value={comment}
          onChange={(e) => {
            setComment(e.target.value);
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          error={touched && !!error}
          helperText={(touched && error) || ' '}
          fullWidth
          sx={{ mt: 2 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" color={danger ? 'error' : 'primary'} disabled={!!error || busy}>
          {submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
}

interface NameDialogProps {
  open: boolean;
  title: string;
  label: string;
  submitLabel: string;
  initialName?: string;
  busy: boolean;
  /** The rule's message, or null when the name passes. */
  validate: (name: string) => string | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/** One name with a rule: category and template create / rename (the admin name dialog). */
export function RuleNameDialog({ validate, ...props }: NameDialogProps) {
  return (
    <NameDialog {...props} validate={(name) => (name.trim() === '' ? MESSAGES.fieldRequired : validate(name.trim()))} />
  );
}
