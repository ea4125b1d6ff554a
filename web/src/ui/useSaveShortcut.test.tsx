import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSaveShortcut } from './useSaveShortcut';

function Editor({ save, enabled }: { save: () => void; enabled: boolean }) {
  useSaveShortcut(save, enabled);
  return <input aria-label="field" />;
}

/** Presses the keys on the focused element (or the body); returns whether the default was prevented. */
const press = (init: KeyboardEventInit) => !fireEvent.keyDown(document.activeElement ?? document.body, init);

describe('useSaveShortcut', () => {
  it('Ctrl+S and Cmd+S save and refuse the browser dialog; other keys pass', () => {
    const save = vi.fn();
    render(<Editor save={save} enabled />);
    expect(press({ key: 's', ctrlKey: true })).toBe(true);
    expect(press({ key: 'S', metaKey: true })).toBe(true);
    expect(save).toHaveBeenCalledTimes(2);
    expect(press({ key: 's' })).toBe(false);
    expect(press({ key: 's', ctrlKey: true, shiftKey: true })).toBe(false);
    expect(press({ key: 'k', ctrlKey: true })).toBe(false);
    // A held key: one save.
    expect(press({ key: 's', ctrlKey: true, repeat: true })).toBe(true);
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('with nothing to save does nothing, still without the browser dialog', () => {
    const save = vi.fn();
    render(<Editor save={save} enabled={false} />);
    expect(press({ key: 's', ctrlKey: true })).toBe(true);
    expect(save).not.toHaveBeenCalled();
  });

  it('the editor shown last answers (a dialog over a screen), the screen again once it closes', () => {
    const screenSave = vi.fn();
    const dialogSave = vi.fn();
    const { rerender } = render(
      <>
        <Editor save={screenSave} enabled />
        <Editor key="dialog" save={dialogSave} enabled={false} />
      </>,
    );
    press({ key: 's', ctrlKey: true });
    expect(dialogSave).not.toHaveBeenCalled();
    expect(screenSave).not.toHaveBeenCalled();
    rerender(<Editor save={screenSave} enabled />);
    press({ key: 's', ctrlKey: true });
    expect(screenSave).toHaveBeenCalledTimes(1);
  });

  it('gone with the last editor', () => {
    const save = vi.fn();
    const { unmount } = render(<Editor save={save} enabled />);
    unmount();
    expect(press({ key: 's', ctrlKey: true })).toBe(false);
    expect(save).not.toHaveBeenCalled();
  });
});
