/** The History action beside a value: an icon button that opens the value's history. */
import HistoryIcon from '@mui/icons-material/History';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { ValueHistoryDialog, type ValueHistoryDialogProps } from './ValueHistoryDialog';
import { VALUE_HISTORY_MESSAGES as MSG } from './messages';

export type HistoryButtonProps = Omit<ValueHistoryDialogProps, 'open' | 'onClose'> & { size?: 'small' | 'medium' };

export function HistoryButton({ size = 'small', ...props }: HistoryButtonProps) {
  const [open, setOpen] = useState(false);
  const label = MSG.historyOf(props.what);
  return (
    <>
      <Tooltip title={label}>
        <IconButton size={size} aria-label={label} onClick={() => setOpen(true)}>
          <HistoryIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && <ValueHistoryDialog open onClose={() => setOpen(false)} {...props} />}
    </>
  );
}
