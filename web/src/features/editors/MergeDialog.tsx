import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { MergeConflict, MergeKind } from '../../api/merge';
import { PendingButton } from '../../ui/ConfirmDialog';
import { EDITOR_MESSAGES as MSG } from './messages';

export type MergeTake = 'mine' | 'theirs';

export interface MergeDialogProps {
  open: boolean;
  busy: boolean;
  kind: MergeKind | null;
  /** Only the overlapping changes; empty when there is nothing to choose. */
  conflicts: MergeConflict[];
  /** Shown instead of the list (the merge failed, or the file kept changing). */
  message: string | null;
  choices: Record<string, MergeTake>;
  /** Every conflict has a choice (or there is a merge to load). */
  canApply: boolean;
  onChoose: (id: string, take: MergeTake) => void;
  onApply: () => void;
  onDiscard: () => void;
  onCancel: () => void;
}

/** A value of a conflict as people read it: JSON strings unquoted, objects indented, text as is. */
export function readableValue(value: string | null, base: string | null, kind: MergeKind | null): string {
  if (value === null) return base === null ? MSG.absent : MSG.deleted;
  if (kind === 'json' || kind === 'translation') {
    try {
      const parsed = JSON.parse(value) as unknown;
      if (typeof parsed === 'string') return parsed === '' ? MSG.emptyText : parsed;
      return JSON.stringify(parsed, null, 2);
    } catch {
      return value;
    }
  }
  return value === '' ? MSG.emptyText : value;
}

/**
 * A save refused because the file changed, whose merge overlaps (issue 21): only the overlapping
 * fields, keys or lines, theirs beside mine, each with "Keep mine" / "Keep theirs" (nothing chosen
 * at first); Apply once all are chosen loads the result into the editor, unsaved.
 */
export function MergeDialog(props: MergeDialogProps) {
  const { open, busy, kind, conflicts, message, choices, canApply, onChoose, onApply, onDiscard, onCancel } = props;
  return (
    <Dialog open={open} onClose={onCancel} fullWidth maxWidth="md" aria-labelledby="editor-merge-title">
      <DialogTitle id="editor-merge-title">{MSG.conflictTitle}</DialogTitle>
      <DialogContent>
        {message ? (
          <DialogContentText>{message}</DialogContentText>
        ) : (
          <>
            <DialogContentText sx={{ mb: 1 }}>{MSG.mergeConflictText}</DialogContentText>
            <DialogContentText sx={{ mb: 2 }}>{MSG.mergeConflictHint}</DialogContentText>
          </>
        )}
        {conflicts.length > 0 && (
          <Stack component="ul" spacing={2} aria-label={MSG.conflictsLabel} sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {conflicts.map((conflict) => (
              <ConflictItem
                key={conflict.id}
                conflict={conflict}
                kind={kind}
                choice={choices[conflict.id]}
                disabled={busy}
                onChoose={(take) => onChoose(conflict.id, take)}
              />
            ))}
          </Stack>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button color="warning" onClick={onDiscard} disabled={busy}>
          {MSG.reloadAndDiscard}
        </Button>
        <PendingButton pending={busy} disabled={!canApply} onClick={onApply}>
          {MSG.apply}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}

interface ItemProps {
  conflict: MergeConflict;
  kind: MergeKind | null;
  choice: MergeTake | undefined;
  disabled: boolean;
  onChoose: (take: MergeTake) => void;
}

function ConflictItem({ conflict, kind, choice, disabled, onChoose }: ItemProps) {
  const labelId = `merge-conflict-${conflict.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <Box component="li" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
      <Typography id={labelId} variant="subtitle2" component="h3" sx={{ wordBreak: 'break-word' }}>
        {conflict.path}
      </Typography>
      {conflict.reason && (
        <Typography variant="body2" color="text.secondary">
          {conflict.reason}
        </Typography>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ my: 1 }}>
        <Side heading={MSG.theirsHeading} text={readableValue(conflict.theirs, conflict.base, kind)} />
        <Side heading={MSG.mineHeading} text={readableValue(conflict.mine, conflict.base, kind)} />
      </Stack>
      <RadioGroup
        row
        aria-labelledby={labelId}
        value={choice ?? ''}
        onChange={(event) => onChoose(event.target.value as MergeTake)}
      >
        <FormControlLabel value="mine" control={<Radio disabled={disabled} />} label={MSG.keepMine} />
        <FormControlLabel value="theirs" control={<Radio disabled={disabled} />} label={MSG.keepTheirs} />
      </RadioGroup>
    </Box>
  );
}

function Side({ heading, text }: { heading: string; text: string }) {
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {heading}
      </Typography>
      <Box
        component="pre"
        sx={{
          m: 0,
          p: 1,
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontSize: 13,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
          maxHeight: 200,
          overflow: 'auto',
        }}
      >
        {text}
      </Box>
    </Box>
  );
}
