import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ShortcutsHelp, SHORTCUTS_TITLE } from './ShortcutsHelp';
import {
  addShortcutHandler,
  isTextEntry,
  KEYBOARD_HELP,
  matchesCombo,
  SHORTCUTS,
  shortcutFor,
  useSaveShortcut,
  useShortcut,
} from '../../core/shortcuts';

const key = (init: KeyboardEventInit, target: EventTarget = document.body) => {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
};

const removers: Array<() => void> = [];
const add = (...args: Parameters<typeof addShortcutHandler>) => removers.push(addShortcutHandler(...args));
afterEach(() => {
  removers.splice(0).forEach((remove) => remove());
  document.body.innerHTML = '';
});

/** A key press as matchesCombo reads it: no modifier unless given. */
const press = (
  key: string,
  code: string,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
) => ({
  key,
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('matchesCombo', () => {
  const save = SHORTCUTS.save.combo;
  it('takes Ctrl or Cmd with the letter, by the key or by its place on the keyboard', () => {
    expect(matchesCombo(press('s', 'KeyS', { ctrlKey: true }), save)).toBe(true);
    expect(matchesCombo(press('S', 'KeyS', { metaKey: true }), save)).toBe(true);
    // Another layout's letter on the S key.
    expect(matchesCombo(press('ы', 'KeyS', { ctrlKey: true }), save)).toBe(true);
  });
  it('refuses the letter alone, with Shift or with Alt', () => {
    expect(matchesCombo(press('s', 'KeyS'), save)).toBe(false);
    expect(matchesCombo(press('S', 'KeyS', { ctrlKey: true, shiftKey: true }), save)).toBe(false);
    expect(matchesCombo(press('s', 'KeyS', { ctrlKey: true, altKey: true }), save)).toBe(false);
  });
  it("takes '?' typed alone (with the Shift it needs), not with Ctrl", () => {
    const help = SHORTCUTS.help.combo;
    expect(matchesCombo(press('?', 'Slash', { shiftKey: true }), help)).toBe(true);
    expect(matchesCombo(press('?', 'Slash', { ctrlKey: true, shiftKey: true }), help)).toBe(false);
    expect(matchesCombo(press('/', 'Slash'), help)).toBe(false);
  });
});

describe('isTextEntry', () => {
  it('is true for text fields, selects and editors, false for buttons and checkboxes', () => {
    document.body.innerHTML = `
      <input id="text"><input id="search" type="search"><input id="box" type="checkbox">
      <textarea id="area"></textarea><select id="select"></select><button id="button"></button>
      <div contenteditable="true"><p id="rich">x</p></div><div class="ace_editor"><div id="ace"></div></div>`;
    const is = (id: string) => isTextEntry(document.getElementById(id));
    expect(['text', 'search', 'area', 'select', 'rich', 'ace'].map(is)).toEqual([true, true, true, true, true, true]);
    expect(['box', 'button'].map(is)).toEqual([false, false]);
    expect(isTextEntry(document.body)).toBe(false);
    expect(isTextEntry(null)).toBe(false);
  });
});

describe('the shortcut registry', () => {
  it('runs the newest handler of a shortcut and prevents the browser’s action', () => {
    const older = vi.fn();
    const newer = vi.fn();
    add('save', older);
    add('save', newer);
    const event = key({ key: 's', code: 'KeyS', ctrlKey: true });
    expect(newer).toHaveBeenCalledTimes(1);
    expect(older).not.toHaveBeenCalled();
    expect(event.defaultPrevented).toBe(true);
    // Once the newer one is gone (its editor closed) the older one runs again.
    removers.pop()?.();
    key({ key: 's', code: 'KeyS', metaKey: true });
    expect(older).toHaveBeenCalledTimes(1);
  });

  it('leaves a key without a handler to the browser', () => {
    const event = key({ key: 's', code: 'KeyS', ctrlKey: true });
    expect(event.defaultPrevented).toBe(false);
    expect(shortcutFor(event)).toBeUndefined();
  });

  it("runs Save and Search in a text field, and leaves '?' to be typed there", () => {
    document.body.innerHTML = '<input id="field">';
    const field = document.getElementById('field') as HTMLInputElement;
    const save = vi.fn();
    const help = vi.fn();
    add('save', save);
    add('help', help);
    key({ key: 's', code: 'KeyS', ctrlKey: true }, field);
    expect(save).toHaveBeenCalledTimes(1);
    const typed = key({ key: '?', code: 'Slash', shiftKey: true }, field);
    expect(help).not.toHaveBeenCalled();
    expect(typed.defaultPrevented).toBe(false);
    key({ key: '?', code: 'Slash', shiftKey: true });
    expect(help).toHaveBeenCalledTimes(1);
  });

  it('leaves a key another handler already took', () => {
    const save = vi.fn();
    add('save', save);
    document.body.addEventListener('keydown', (e) => e.preventDefault(), { once: true });
    key({ key: 's', code: 'KeyS', ctrlKey: true });
    expect(save).not.toHaveBeenCalled();
  });

  it('useShortcut holds the handler while mounted (and enabled), always its latest version', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender, unmount } = renderHook(({ handler, enabled }) => useShortcut('search', handler, enabled), {
      initialProps: { handler: first, enabled: true },
    });
    key({ key: 'k', code: 'KeyK', ctrlKey: true });
    rerender({ handler: second, enabled: true });
    key({ key: 'k', code: 'KeyK', ctrlKey: true });
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([1, 1]);
    rerender({ handler: second, enabled: false });
    expect(key({ key: 'k', code: 'KeyK', ctrlKey: true }).defaultPrevented).toBe(false);
    rerender({ handler: second, enabled: true });
    unmount();
    expect(key({ key: 'k', code: 'KeyK', ctrlKey: true }).defaultPrevented).toBe(false);
    expect(second).toHaveBeenCalledTimes(1);
  });
});

describe('useSaveShortcut', () => {
  const ctrlS = (init: KeyboardEventInit = {}) => key({ key: 's', code: 'KeyS', ctrlKey: true, ...init });

  it('saves while enabled; with nothing to save does nothing, the browser dialog still refused; a held key saves once', () => {
    const save = vi.fn();
    const { rerender, unmount } = renderHook(({ enabled }) => useSaveShortcut(save, enabled), {
      initialProps: { enabled: false },
    });
    expect(ctrlS().defaultPrevented).toBe(true);
    expect(save).not.toHaveBeenCalled();
    rerender({ enabled: true });
    expect(ctrlS().defaultPrevented).toBe(true);
    expect(ctrlS({ repeat: true }).defaultPrevented).toBe(true);
    expect(save).toHaveBeenCalledTimes(1);
    unmount();
    expect(ctrlS().defaultPrevented).toBe(false);
  });

  it('the editor shown last answers (a dialog over its screen), even with nothing to save', () => {
    const screenSave = vi.fn();
    const dialogSave = vi.fn();
    renderHook(() => useSaveShortcut(screenSave, true));
    const dialog = renderHook(() => useSaveShortcut(dialogSave, false));
    ctrlS();
    expect([screenSave.mock.calls.length, dialogSave.mock.calls.length]).toEqual([0, 0]);
    dialog.unmount();
    ctrlS();
    expect(screenSave).toHaveBeenCalledTimes(1);
  });
});

describe("the '?' list", () => {
  it('lists every shortcut, Save of the editors included', () => {
    expect(KEYBOARD_HELP.map((s) => s.keys)).toEqual(
      expect.arrayContaining(['Ctrl/Cmd+S', 'Ctrl/Cmd+K', '?', 'Escape']),
    );
    expect(KEYBOARD_HELP).toContainEqual(
      expect.objectContaining({ keys: 'Ctrl/Cmd+S', description: 'Save (in every editor)' }),
    );
    expect(KEYBOARD_HELP.some((s) => s.description === 'Skip to main content')).toBe(true);
  });

  it("opens on '?' and closes on Escape, the focus back where it was", async () => {
    const user = userEvent.setup();
    render(
      <>
        <button>Before</button>
        <ShortcutsHelp />
      </>,
    );
    const before = screen.getByRole('button', { name: 'Before' });
    act(() => before.focus());
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: SHORTCUTS_TITLE });
    expect(dialog).toHaveTextContent('Ctrl/Cmd+SSave (in every editor)');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(before).toHaveFocus());
  });
});
