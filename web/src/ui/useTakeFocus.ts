import { useEffect, useRef, type RefObject } from 'react';

/** The focus went with a removed element: it is on the page's body. */
export const focusLost = () => !document.activeElement || document.activeElement === document.body;

/**
 * For a popup that is not one of MUI's modals (Dialog, Popover, Menu and Drawer do this
 * themselves): when it is shown, the focus moves to `target` (its safe choice); when it goes,
 * the focus goes back to the element that had it before (the control that opened it), unless
 * the user has put the focus somewhere else meanwhile.
 */
export function useTakeFocus(target: RefObject<HTMLElement | null>, active = true) {
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const element = target.current;
    if (!active || !element) return;
    // (A second run of the effect, as in React's strict mode, finds the focus already there.)
    if (document.activeElement !== element) opener.current = document.activeElement;
    element.focus();
    return () => {
      const back = opener.current;
      // After the removal: wait for the popup's element to leave the document.
      queueMicrotask(() => {
        if (back instanceof HTMLElement && back.isConnected && focusLost()) back.focus();
      });
    };
  }, [target, active]);
}
