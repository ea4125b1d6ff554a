import { afterEach, describe, expect, it, vi } from 'vitest';
import { releaseTabOnEscape } from './releaseTabOnEscape';

/** An editor that keeps Tab (as Ace does): its keydown listener on the inner element. */
function setup() {
  const container = document.createElement('div');
  const input = document.createElement('textarea');
  container.append(input);
  document.body.append(container);
  const editorKeys = vi.fn();
  input.addEventListener('keydown', (e) => editorKeys(e.key));
  const stop = releaseTabOnEscape(container);
  const press = (key: string, init: KeyboardEventInit = {}) =>
    input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
  return { container, input, editorKeys, stop, press };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('releaseTabOnEscape', () => {
  it('keeps the editor from the Tab after Escape only (Shift of Shift+Tab included)', () => {
    const { editorKeys, press } = setup();
    press('Tab');
    expect(editorKeys).toHaveBeenLastCalledWith('Tab');
    press('Escape');
    press('Shift', { shiftKey: true });
    editorKeys.mockClear();
    press('Tab', { shiftKey: true });
    expect(editorKeys).not.toHaveBeenCalled();
    // Any other key first gives Tab back.
    press('Escape');
    press('a');
    press('Tab');
    expect(editorKeys).toHaveBeenLastCalledWith('Tab');
  });

  it('forgets the Escape when the focus leaves; stops when asked', () => {
    const { input, editorKeys, stop, press } = setup();
    press('Escape');
    input.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    press('Tab');
    expect(editorKeys).toHaveBeenLastCalledWith('Tab');
    stop();
    press('Escape');
    editorKeys.mockClear();
    press('Tab');
    expect(editorKeys).toHaveBeenCalledWith('Tab');
  });
});
