import IconButton, { type IconButtonProps } from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import type { SxProps, Theme } from '@mui/material/styles';
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';

/** The open state of a header menu: its owner closes it from the menu's actions. */
export interface HeaderPopoverControl {
  /** The trigger while the menu is open; null when closed. */
  anchor: HTMLElement | null;
  open: boolean;
  show: (anchor: HTMLElement) => void;
  close: () => void;
}

/** The state of a HeaderPopover that its owner controls (pass it as `control`). */
export function useHeaderPopover(): HeaderPopoverControl {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = useCallback(() => setAnchor(null), []);
  return { anchor, open: anchor !== null, show: setAnchor, close };
}

/** Props of the trigger beyond those the shell owns: its color, data attributes, aria-busy. */
export type HeaderTriggerProps = Omit<
  IconButtonProps,
  'aria-label' | 'aria-haspopup' | 'aria-expanded' | 'aria-controls' | 'onClick' | 'children'
> &
  Record<`data-${string}`, string | undefined>;

export interface HeaderPopoverProps {
  /** The trigger's accessible name ('Notifications: 3'). */
  label: string;
  /** The trigger's content: an icon, a badge, an avatar. */
  icon: ReactNode;
  /** The trigger's tooltip; none when omitted. */
  tooltip?: string;
  /** How long the pointer rests on the trigger before the tooltip opens (ms). */
  tooltipDelay?: number;
  triggerProps?: HeaderTriggerProps;
  /**
   * What opens: 'menu' is a menu of items (role menu; the arrow keys move between the items,
   * typing a letter jumps to an item); 'dialog' and 'region' are a panel with that role, named
   * by `panelLabel`.
   */
  kind: 'menu' | 'dialog' | 'region';
  panelLabel?: string;
  /** The popup's id, which the trigger's aria-controls names while open; a generated one by default. */
  id?: string;
  /** The popup paper's style (its width, padding). */
  paperSx?: SxProps<Theme>;
  /** Open state held by the owner (useHeaderPopover), for menus whose actions close them. */
  control?: HeaderPopoverControl;
  /** The menu's content; a function gets the open state (to close it, or to load only while open). */
  children: ReactNode | ((control: HeaderPopoverControl) => ReactNode);
}

/**
 * The one shell of the header's menus (notifications, changed files, local changes, task runner,
 * documentation, profile): an icon button that opens a popup under it, right-aligned. It owns the
 * trigger's aria attributes (aria-haspopup, aria-expanded and aria-controls while open), the
 * placement, and closing: Escape, a click outside or `control.close()`; focus then returns to
 * the trigger.
 */
export function HeaderPopover({
  label,
  icon,
  tooltip,
  tooltipDelay,
  triggerProps,
  kind,
  panelLabel,
  id,
  paperSx,
  control,
  children,
}: HeaderPopoverProps) {
  const own = useHeaderPopover();
  const state = control ?? own;
  const generatedId = useId();
  const popupId = id ?? generatedId;
  const content = typeof children === 'function' ? children(state) : children;
  // Escape closes the popup wherever the focus is: an action in the panel may remove the element
  // that had it (Run Tasks while the tasks run), and the popup's own key handler then hears nothing.
  const { open, close } = state;
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);
  const placement = {
    anchorEl: state.anchor,
    open: state.open,
    onClose: state.close,
    anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
    transformOrigin: { vertical: 'top', horizontal: 'right' },
  } as const;

  const trigger = (
    <IconButton
      {...triggerProps}
      aria-label={label}
      aria-haspopup={kind === 'menu' ? 'menu' : 'dialog'}
      aria-expanded={state.open ? 'true' : undefined}
      aria-controls={state.open ? popupId : undefined}
      onClick={(e) => state.show(e.currentTarget)}
    >
      {icon}
    </IconButton>
  );

  return (
    <>
      {tooltip ? (
        <Tooltip title={tooltip} enterDelay={tooltipDelay}>
          {trigger}
        </Tooltip>
      ) : (
        trigger
      )}
      {kind === 'menu' ? (
        <Menu id={popupId} {...placement} slotProps={{ paper: { sx: paperSx } }}>
          {content}
        </Menu>
      ) : (
        <Popover
          {...placement}
          slotProps={{ paper: { id: popupId, role: kind, 'aria-label': panelLabel, sx: paperSx } as object }}
        >
          {content}
        </Popover>
      )}
    </>
  );
}
