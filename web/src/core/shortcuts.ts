/**
 * The app's keyboard shortcuts in one place (issue 31 item 1): the list that `?` shows, and the
 * registry that runs them. A screen or editor that acts on a shortcut calls
 * `useShortcut('save', handler)` while it is mounted; the newest handler of a shortcut runs and
 * the browser's own action (Save Page, its search) is prevented. With no handler the key does
 * what the browser does.
 *
 *   useSaveShortcut(() => save(), dirty && canWrite); // an editor: Ctrl/Cmd+S saves
 */
import { useEffect, useRef } from 'react';

/** The shortcuts a handler can be registered for. */
export type ShortcutId = 'save' | 'search' | 'help';

/** A key combination: Ctrl (or Cmd on a Mac) with a letter, or one character typed alone. */
export type KeyCombo = { mod: true; letter: string } | { mod: false; char: string };

export interface ShortcutEntry {
  /** The keys as the list shows them ('Ctrl/Cmd+S'). */
  keys: string;
  description: string;
}

export interface KeyShortcut extends ShortcutEntry {
  id: ShortcutId;
  combo: KeyCombo;
  /** Whether it works while the focus is in a text field or an editor (Save does; `?` types a '?'). */
  inTextFields: boolean;
}

export const SHORTCUTS: Record<ShortcutId, KeyShortcut> = {
  save: {
    id: 'save',
    keys: 'Ctrl/Cmd+S',
    description: 'Save (in every editor)',
    combo: { mod: true, letter: 's' },
    inTextFields: true,
  },
  search: {
    id: 'search',
    keys: 'Ctrl/Cmd+K',
    description: 'Search in the portal (the header search box)',
    combo: { mod: true, letter: 'k' },
    inTextFields: true,
  },
  help: {
    id: 'help',
    keys: '?',
    description: 'List the keyboard shortcuts (outside text fields)',
    combo: { mod: false, char: '?' },
    inTextFields: false,
  },
};

/** The keys the shell and the browser handle themselves, listed with the shortcuts. */
export const KEYBOARD_HELP: readonly ShortcutEntry[] = [
  SHORTCUTS.save,
  SHORTCUTS.search,
  SHORTCUTS.help,
  { keys: 'Escape', description: 'Close the open panel, menu or dialog (the focus goes back to its button)' },
  { keys: 'Tab (first stop)', description: 'Skip to main content' },
  { keys: 'Arrow keys, Home, End', description: 'Move in menus, pickers, lists and trees; Enter or Space chooses' },
];

type KeyInfo = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

/** Whether the key event is the combination (Ctrl or Cmd; by the key's letter or its place). */
export function matchesCombo(event: KeyInfo, combo: KeyCombo): boolean {
  if (event.altKey) return false;
  if (!combo.mod) return !event.ctrlKey && !event.metaKey && event.key === combo.char;
  if (!(event.ctrlKey || event.metaKey) || event.shiftKey) return false;
  return event.key.toLowerCase() === combo.letter || event.code === `Key${combo.letter.toUpperCase()}`;
}

const NOT_TEXT_INPUTS = new Set(['button', 'checkbox', 'color', 'file', 'image', 'radio', 'range', 'reset', 'submit']);

/** Whether the element takes typed text: a text field, a select, an editor (contenteditable, Ace). */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TEXT_INPUTS.has(target.type);
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return !!target.closest('[contenteditable=""], [contenteditable="true"], [role="textbox"], .ace_editor');
}

type Handler = (event: KeyboardEvent) => void;
const handlers = new Map<ShortcutId, Handler[]>();

/** The shortcut the key event stands for (where the focus is), if one has a handler. */
export function shortcutFor(event: KeyboardEvent): KeyShortcut | undefined {
  return Object.values(SHORTCUTS).find(
    (s) =>
      (handlers.get(s.id)?.length ?? 0) > 0 &&
      matchesCombo(event, s.combo) &&
      (s.inTextFields || !isTextEntry(event.target)),
  );
}

function onKeyDown(event: KeyboardEvent) {
  if (event.defaultPrevented || event.isComposing) return;
  const shortcut = shortcutFor(event);
  if (!shortcut) return;
  const list = handlers.get(shortcut.id) ?? [];
  event.preventDefault();
  list[list.length - 1](event);
}

/**
 * Runs handler on the shortcut until the returned function is called; the newest handler of a
 * shortcut runs (an editor opened in a dialog saves itself, not the screen below).
 */
export function addShortcutHandler(id: ShortcutId, handler: Handler): () => void {
  if (handlers.size === 0) window.addEventListener('keydown', onKeyDown);
  handlers.set(id, [...(handlers.get(id) ?? []), handler]);
  return () => {
    const rest = (handlers.get(id) ?? []).filter((h) => h !== handler);
    if (rest.length > 0) handlers.set(id, rest);
    else handlers.delete(id);
    if (handlers.size === 0) window.removeEventListener('keydown', onKeyDown);
  };
}

/** Runs handler on the shortcut while the component is mounted (and `enabled`). */
export function useShortcut(id: ShortcutId, handler: Handler, enabled = true) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!enabled) return;
    return addShortcutHandler(id, (event) => latest.current(event));
  }, [id, enabled]);
}

/**
 * An editor's Ctrl/Cmd+S while it is mounted (the translation manager and its selector, the JSON
 * and source editors, page source mode, the designer, the link manager, the whitelist): `save`
 * runs when `enabled` (something to save, allowed to, no merge or conflict dialog waiting for an
 * answer); otherwise the keys do nothing, and the browser's Save Page never opens while an editor
 * is shown. A held key saves once.
 */
export function useSaveShortcut(save: () => void, enabled: boolean) {
  useShortcut('save', (event) => {
    if (enabled && !event.repeat) save();
  });
}
