/**
 * Where the keyboard focus goes in the main region (issue 31 item 1, WCAG 2.4.1 and 2.4.3): the
 * skip link and a route change put it on the screen's heading (its first h1), or on the region
 * itself when the screen has none. Both get tabIndex -1: focusable by script, not a Tab stop.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/** The main region's id (the skip link's target). */
export const MAIN_ID = 'main-content';

/** How long a route change waits for the new screen's heading (a screen may load first). */
export const HEADING_WAIT_MS = 10_000;

/** The element the focus goes to in the main region: its first h1, or the region. */
export function mainFocusTarget(main: HTMLElement): HTMLElement {
  return main.querySelector<HTMLElement>('h1') ?? main;
}

/** Moves the focus to the main region's heading (or the region). */
export function focusMain(main: HTMLElement | null) {
  if (!main) return;
  const target = mainFocusTarget(main);
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
}

/** The focus is where the new screen (or a dialog it opened) put it: not to be moved. */
function placedByScreen(main: HTMLElement): boolean {
  const active = document.activeElement;
  if (!active || active === document.body || !active.isConnected) return false;
  return main.contains(active) || !!active.closest('[role="dialog"], [role="alertdialog"]');
}

/** Inside an open modal popup (a drawer, menu, popover or dialog) that traps the focus. */
const inPopup = (node: EventTarget | null) =>
  node instanceof Element && !!node.closest('.MuiModal-root, [role="dialog"], [role="menu"]');

/**
 * Moves the focus to the main region's heading. While the screen still loads (no heading yet)
 * the region itself takes the focus, and hands it to the heading once shown, if nothing moved it
 * meanwhile. When a closing drawer or menu still holds the focus in its trap, it tries again once
 * the trap gives the focus back to its button. It gives up when the user presses a key or the
 * pointer, or after HEADING_WAIT_MS. Returns a function that stops it.
 */
export function focusHeadingWhenShown(main: HTMLElement): () => void {
  let trapped = false;
  const observer = new MutationObserver(() => {
    if (document.activeElement !== main) stop();
    else if (main.querySelector('h1')) {
      focusMain(main);
      stop();
    }
  });
  const onFocusIn = (event: FocusEvent) => {
    if (trapped && !inPopup(event.target)) move();
  };
  const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
  function stop() {
    observer.disconnect();
    document.removeEventListener('focusin', onFocusIn, true);
    document.removeEventListener('keydown', stop, true);
    document.removeEventListener('pointerdown', stop, true);
    window.clearTimeout(timer);
  }
  function move() {
    trapped = false;
    focusMain(main);
    const active = document.activeElement;
    if (active === main) observer.observe(main, { childList: true, subtree: true });
    else if (!main.contains(active) && inPopup(active)) trapped = true;
    else stop();
  }
  document.addEventListener('focusin', onFocusIn, true);
  document.addEventListener('keydown', stop, true);
  document.addEventListener('pointerdown', stop, true);
  move();
  return stop;
}

/**
 * After the user goes to another screen, the focus goes to the new screen's heading (as a page
 * load would put a screen reader there), so Tab continues in the screen and not from the
 * side-navigation entry or the closed menu. Left alone:
 * - route changes before the user pressed a key or the pointer in the shell: the first screen
 *   after sign-in or a reload and the redirects that follow it (the focus is at the top of the
 *   page, the first Tab reaches the skip link);
 * - a screen shown after the user pressed a key or the pointer at its URL already (a screen
 *   slow to load): they have moved on meanwhile;
 * - a focus in the main region or in a dialog: an in-screen change of the URL (a row chosen in a
 *   list), or a field the new screen focuses on purpose.
 */
export function useRouteFocus(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  // The URL at the user's last key or pointer press: the press that went to a screen was made
  // at the URL before it.
  const pressedAt = useRef<string | null>(null);
  useEffect(() => {
    const note = () => {
      pressedAt.current = window.location.href;
    };
    document.addEventListener('keydown', note, true);
    document.addEventListener('pointerdown', note, true);
    return () => {
      document.removeEventListener('keydown', note, true);
      document.removeEventListener('pointerdown', note, true);
    };
  }, []);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const pressed = pressedAt.current;
    if (pressed === null || pressed === window.location.href) return;
    if (!main.current || placedByScreen(main.current)) return;
    return focusHeadingWhenShown(main.current);
  }, [pathname, main]);
}
