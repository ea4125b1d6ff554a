import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useId, useState } from 'react';
import { KEYBOARD_HELP, useShortcut } from '../../core/shortcuts';

export const SHORTCUTS_TITLE = 'Keyboard shortcuts';

/** The keyboard shortcuts, listed (a table of keys and what they do). */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{SHORTCUTS_TITLE}</DialogTitle>
      <DialogContent>
        <Table size="small" aria-labelledby={titleId}>
          <TableBody>
            {KEYBOARD_HELP.map((entry) => (
              <TableRow key={entry.keys}>
                <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap', width: '1%' }}>
                  <Box component="kbd" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
                    {entry.keys}
                  </Box>
                </TableCell>
                <TableCell>{entry.description}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/** `?` (outside text fields) opens the list of shortcuts; Escape or Close closes it. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  useShortcut('help', () => setOpen(true));
  return <ShortcutsDialog open={open} onClose={() => setOpen(false)} />;
}
