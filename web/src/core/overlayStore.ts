import type { ReactNode } from 'react';
import { create } from 'zustand';

/**
 * The overlay service (spec 1 §2.5 "Overlay modes"): one full-screen overlay
 * that any code can show or hide, in one of five modes.
 */
export type OverlayMode = 'spinner' | 'progress' | 'custom' | 'notFound' | 'serviceUnavailable';

export const DEFAULT_OVERLAY_MESSAGE = 'Please Wait';
/** Fade in/out duration (spec 1 §9: 0.5 s). */
export const OVERLAY_FADE_MS = 500;

export interface OverlayOptions {
  mode?: OverlayMode;
  message?: string;
  /** 0–100, for the progress mode. */
  percent?: number;
  /** Content of the custom mode. */
  content?: ReactNode;
}

interface OverlayState {
  visible: boolean;
  mode: OverlayMode;
  message: string;
  percent: number;
  content: ReactNode;
}

export const useOverlayStore = create<OverlayState>(() => ({
  visible: false,
  mode: 'spinner',
  message: DEFAULT_OVERLAY_MESSAGE,
  percent: 0,
  content: null,
}));

export const overlay = {
  show(options: OverlayOptions | string = {}): void {
    const opts = typeof options === 'string' ? { message: options } : options;
    useOverlayStore.setState({
      visible: true,
      mode: opts.mode ?? 'spinner',
      message: opts.message ?? DEFAULT_OVERLAY_MESSAGE,
      percent: clampPercent(opts.percent ?? 0),
      content: opts.content ?? null,
    });
  },
  progress(percent: number, message?: string): void {
    useOverlayStore.setState((s) => ({
      visible: true,
      mode: 'progress',
      percent: clampPercent(percent),
      message: message ?? s.message,
    }));
  },
  hide(): void {
    useOverlayStore.setState({ visible: false });
  },
};

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, Number.isFinite(value) ? value : 0));
}
