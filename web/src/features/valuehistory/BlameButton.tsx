/** The Blame action of a file: a button that opens its blame. */
import Button from '@mui/material/Button';
import { useState } from 'react';
import { BlameDialog, type BlameDialogProps } from './BlameDialog';
import { VALUE_HISTORY_MESSAGES as MSG } from './messages';

export function BlameButton(props: Omit<BlameDialogProps, 'open' | 'onClose'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)} aria-label={MSG.blameOf(props.name)}>
        {MSG.blame}
      </Button>
      {open && <BlameDialog open onClose={() => setOpen(false)} {...props} />}
    </>
  );
}
