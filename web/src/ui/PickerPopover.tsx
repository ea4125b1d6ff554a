import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { useCallback, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { toApiError } from '../api/errors';

/** The entries of a picker: its list rows (a tree's rows too). */
export const PICKER_ENTRY = '.MuiListItemButton-root:not(.Mui-disabled)';

/** How long typed letters add up to one search (as in MUI's menus). */
const TYPEAHEAD_MS = 500;

export interface PickerPopoverProps {
  anchorEl: HTMLElement | null;
  /** Open by default while it has an anchor. */
  open?: boolean;
  onClose: () => void;
  /** The popup's accessible name ('Select Branch'). */
  label: string;
  paperSx?: SxProps<Theme>;
  children: ReactNode;
}

const entriesOf = (root: HTMLElement) => Array.from(root.querySelectorAll<HTMLElement>(PICKER_ENTRY));

/** The entry after `from` whose text starts with `text` (case-insensitive), wrapping round. */
export function entryStartingWith(entries: HTMLElement[], from: number, text: string): HTMLElement | undefined {
  const wanted = text.toLowerCase();
  for (let step = 1; step <= entries.length; step++) {
    const entry = entries[(from + step + entries.length) % entries.length];
    if ((entry.textContent ?? '').trim().toLowerCase().startsWith(wanted)) return entry;
  }
  return undefined;
}

/**
 * The popover of a side-navigation picker (Select Domain, Portal, Branch, Language, Page), to the
 * right of its entry, with the keyboard of a menu (issue 31): the focus starts on the current
 * choice (else the first entry) as soon as the entries are shown; ArrowDown / ArrowUp move to the
 * next / previous entry (wrapping round), Home / End to the first / last, typed letters to the
 * next entry starting with them; Enter or Space choose; Escape closes, and the focus goes back
 * to the entry that opened it. A tree's own arrow keys (expand, collapse) go first.
 */
export function PickerPopover({ anchorEl, open = !!anchorEl, onClose, label, paperSx, children }: PickerPopoverProps) {
  const typed = useRef({ text: '', at: 0 });

  // The entries may load after the popover opened: the first focus waits for them, unless the
  // user has already moved into the popover (to a sort toggle).
  const content = useCallback((node: HTMLElement | null) => {
    if (!node) return;
    const focusCurrent = () => {
      if (node.contains(document.activeElement)) return true;
      const entries = entriesOf(node);
      if (entries.length === 0) return false;
      (entries.find((e) => e.classList.contains('Mui-selected')) ?? entries[0]).focus();
      return true;
    };
    if (focusCurrent()) return;
    const observer = new MutationObserver(() => focusCurrent() && observer.disconnect());
    observer.observe(node, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const entries = entriesOf(event.currentTarget);
    if (entries.length === 0) return;
    const index = entries.indexOf(document.activeElement as HTMLElement);
    let next: HTMLElement | undefined;
    switch (event.key) {
      case 'ArrowDown':
        next = entries[(index + 1) % entries.length];
        break;
      case 'ArrowUp':
        next = entries[index <= 0 ? entries.length - 1 : index - 1];
        break;
      case 'Home':
        next = entries[0];
        break;
      case 'End':
        next = entries[entries.length - 1];
        break;
      default: {
        if (event.key.length !== 1 || event.key === ' ') return;
        const now = Date.now();
        const text = now - typed.current.at < TYPEAHEAD_MS ? typed.current.text + event.key : event.key;
        typed.current = { text, at: now };
        // A repeated first letter moves on to the next entry with it; more letters refine.
        next = entryStartingWith(entries, text.length > 1 ? index - 1 : index, text);
      }
    }
    event.preventDefault();
    next?.focus();
  };

  return (
    <Popover
      open={open}
      anchorEl={anchorEl}
      onClose={onClose}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { role: 'dialog', 'aria-label': label, sx: paperSx } as object }}
    >
      <Box ref={content} onKeyDown={onKeyDown} sx={{ display: 'contents' }}>
        {children}
      </Box>
    </Popover>
  );
}

/** The part of a query a picker's list waits on. */
export interface PickerQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A picker's list while its query loads ('Loading Branches') or after it failed (the server's
 * message, or `failure`, with Retry); null once the query has its data.
 */
export function pickerWaiting(query: PickerQuery, loading: string, failure?: string): ReactNode | null {
  if (query.isPending) {
    return (
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', p: 2 }} role="progressbar" aria-label={loading}>
        <CircularProgress size={20} aria-hidden />
        <Typography>{loading}</Typography>
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Alert
        severity="error"
        sx={{ m: 1 }}
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            Retry
          </Button>
        }
      >
        {failure ?? toApiError(query.error).errorMessage}
      </Alert>
    );
  }
  return null;
}
