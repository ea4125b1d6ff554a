/**
 * Editors that keep Tab for themselves (Ace indents, the rich-text lists nest) must not trap a
 * keyboard user (WCAG 2.1.2). As Ace documents for its editor: Escape, then Tab (or Shift+Tab)
 * leaves. After Escape the next Tab inside `container` is kept from the editor, so the browser
 * moves the focus on; any other key, or the focus leaving, gives Tab back to the editor.
 * Returns the function that removes the listeners.
 */
export function releaseTabOnEscape(container: HTMLElement): () => void {
  let released = false;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') released = true;
    // Capture phase on an ancestor: the editor's own keydown listener never sees this Tab.
    else if (e.key === 'Tab' && released) e.stopPropagation();
    else if (!MODIFIERS.has(e.key)) released = false;
  };
  const onFocusOut = () => {
    released = false;
  };
  container.addEventListener('keydown', onKeyDown, true);
  container.addEventListener('focusout', onFocusOut);
  return () => {
    container.removeEventListener('keydown', onKeyDown, true);
    container.removeEventListener('focusout', onFocusOut);
  };
}

/** Keys that start a combination (Shift of Shift+Tab) and keep the release. */
const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta']);
