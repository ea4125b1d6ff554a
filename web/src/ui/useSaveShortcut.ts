import { useEffect, useRef } from 'react';

/**
 * Ctrl+S (Cmd+S on a Mac) saves the editor on screen instead of opening the browser's Save Page
 * dialog (issue 31). One rule for every editor with a Save button: the translation manager, the
 * JSON and source editors, page source mode, the designer, the link manager, the translation
 * selector.
 *
 * `save` runs when `enabled` (something to save, allowed to, and no merge or conflict dialog
 * waiting for an answer); otherwise the keys do nothing — the browser's dialog is refused either
 * way while an editor is on screen. With editors stacked
 * (a dialog's over a screen's) the last one shown answers: the dialog's, until it closes.
 */
export function useSaveShortcut(save: () => void, enabled: boolean) {
  const entry = useRef<Entry>({ save, enabled });
  entry.current.save = save;
  entry.current.enabled = enabled;
  useEffect(() => {
    const mine = entry.current;
    stack.push(mine);
    // Capture: a control that stops the key's propagation (a menu, Ace) cannot let the browser's dialog through.
    if (stack.length === 1) window.addEventListener('keydown', onKeyDown, true);
    return () => {
      stack.splice(stack.indexOf(mine), 1);
      if (stack.length === 0) window.removeEventListener('keydown', onKeyDown, true);
    };
  }, []);
}

interface Entry {
  save: () => void;
  enabled: boolean;
}

/** The editors on screen, in the order they were shown. */
const stack: Entry[] = [];

/** Ctrl+S or Cmd+S, without Alt or Shift (Ctrl+Shift+S is another browser command). */
function isSaveShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 's';
}

function onKeyDown(e: KeyboardEvent) {
  if (!isSaveShortcut(e)) return;
  e.preventDefault();
  // A held key repeats: one save.
  if (e.repeat) return;
  const top = stack[stack.length - 1];
  if (top?.enabled) top.save();
}
