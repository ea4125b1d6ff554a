import { create } from 'zustand';
import type { SelectedPortal } from '../../core/selectionStore';

/**
 * The limited-mode overlay (spec 1 §2.5): shown when a LIMITED portal opens, unless the user
 * ticked 'Do not show this message again' (remembered per user id under the localStorage key
 * hideLimitedModeOverlay, a JSON map of user ids to true).
 */
export const HIDE_LIMITED_KEY = 'hideLimitedModeOverlay';

function readMap(): Record<string, boolean> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(HIDE_LIMITED_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

export function isLimitedOverlayHidden(userId: string | number | undefined): boolean {
  return userId !== undefined && readMap()[String(userId)] === true;
}

export function hideLimitedOverlayFor(userId: string | number): void {
  try {
    window.localStorage.setItem(HIDE_LIMITED_KEY, JSON.stringify({ ...readMap(), [String(userId)]: true }));
  } catch {
    // Storage unavailable: the overlay shows again next time.
  }
}

interface LimitedState {
  portal: SelectedPortal | null;
  resolve: ((proceed: boolean) => void) | null;
}

export const useLimitedOverlayStore = create<LimitedState>(() => ({ portal: null, resolve: null }));

/** Shows the overlay (unless hidden for the user); resolves true on Proceed, false on Cancel. */
export function confirmLimitedMode(portal: SelectedPortal, userId: string | number | undefined): Promise<boolean> {
  if (isLimitedOverlayHidden(userId)) return Promise.resolve(true);
  return new Promise((resolve) => useLimitedOverlayStore.setState({ portal, resolve }));
}

export function answerLimitedMode(proceed: boolean, dontShowAgainFor?: string | number): void {
  const { resolve } = useLimitedOverlayStore.getState();
  if (proceed && dontShowAgainFor !== undefined) hideLimitedOverlayFor(dontShowAgainFor);
  useLimitedOverlayStore.setState({ portal: null, resolve: null });
  resolve?.(proceed);
}
