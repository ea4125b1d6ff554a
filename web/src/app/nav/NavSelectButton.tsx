import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import type { MouseEvent } from 'react';

interface Props {
  label: string;
  value?: string;
  /** Renders the value as a placeholder (nothing selected yet). */
  empty?: boolean;
  /** What it opens: a menu (Manage Portal) or a picker's popup (Select Portal). */
  popup: 'menu' | 'dialog';
  expanded: boolean;
  onClick: (event: MouseEvent<HTMLElement>) => void;
}

/** A side-navigation entry that opens a popover: its label and the current choice. */
export function NavSelectButton({ label, value, empty, popup, expanded, onClick }: Props) {
  return (
    <ListItemButton aria-haspopup={popup} aria-expanded={expanded} onClick={onClick} sx={{ borderRadius: 1, mx: 1 }}>
      <ListItemText
        primary={label}
        secondary={value}
        slotProps={{
          primary: { sx: { fontWeight: 600, fontSize: 14 } },
          secondary: {
            noWrap: true,
            sx: {
              color: empty ? 'rgba(255,255,255,0.5)' : 'rgba(255,255,255,0.8)',
              fontStyle: empty ? 'italic' : undefined,
            },
          },
        }}
      />
      <ChevronRightIcon fontSize="small" sx={{ opacity: 0.7 }} />
    </ListItemButton>
  );
}
