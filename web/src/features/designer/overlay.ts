/**
 * The preview overlay's state machine (spec 2 §4 "Pages and designer", §8 page engine codes):
 * driven by the engine's `engineEvent`s and the host's own timers.
 *
 * - start / page change: the spinner with 'Please Wait';
 * - `{step, progress}`: progress mode with the step as message; progress 100 is ready (the overlay
 *   fades out);
 * - `{error}`: MISSING_PARAMETERS opens the missing-parameters screen, anything else the page-open
 *   failure overlay (Retry; Reset too for the reset codes; 'Unable to retry…' when retry is
 *   impossible);
 * - host time-out (15000 ms without any engineEvent) → TIMED_OUT; the frame loaded but never
 *   talked → MISSING_ENGINE.
 */
import { offersReset } from '../../api/portal';
import type { PageParameter } from '../../api/sitemap';
import { DESIGNER_MESSAGES } from './messages';

/** The page engine start time-out, also kept by the host (spec 2 §9). */
export const START_TIMEOUT_MS = 15000;
/** After the frame's load event, this long without a message means there is no engine. */
export const SILENT_ENGINE_MS = 5000;
/** Overlay fade (0.5 s) and its safety timeout (1.5 s). */
export const FADE_MS = 500;
export const FADE_SAFETY_MS = 1500;

export interface PageOpenError {
  errorCode: string;
  errorTitle?: string;
  errorMessage: string;
  httpStatus: number;
  data?: unknown;
}

export interface MissingParameters {
  pageId: string;
  title: string;
  /** Every parameter of the page, with the values given. */
  parameters: PageParameter[];
  /** Names of the required ones without a value. */
  missing: string[];
}

export type OverlayState =
  | { phase: 'loading'; mode: 'spinner' | 'progress'; message: string; progress: number | null; heard: boolean }
  | { phase: 'ready'; heard: boolean }
  | { phase: 'missingParameters'; heard: boolean; missing: MissingParameters }
  | { phase: 'failed'; heard: boolean; error: PageOpenError };

export type OverlayEvent =
  | { type: 'start' }
  | { type: 'navigate' }
  | { type: 'engineEvent'; payload: Record<string, unknown> }
  | { type: 'hostTimeout' }
  | { type: 'frameSilent' };

export const initialOverlay: OverlayState = {
  phase: 'loading',
  mode: 'spinner',
  message: DESIGNER_MESSAGES.pleaseWait,
  progress: null,
  heard: false,
};

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));

function toParameters(value: unknown): PageParameter[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (p): p is Record<string, unknown> =>
        !!p && typeof p === 'object' && typeof (p as { name?: unknown }).name === 'string',
    )
    .map((p) => ({
      name: p.name as string,
      description: text(p.description),
      value: text(p.value),
      required: p.required === true || p.required === 'true',
    }));
}

/** The error of an engineEvent, checked field by field (the frame is untrusted). */
export function toPageOpenError(value: unknown): PageOpenError {
  const e = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const status = Number(e.httpStatus);
  return {
    errorCode: text(e.errorCode) || 'UNKNOWN_ERROR',
    errorTitle: text(e.errorTitle) || undefined,
    errorMessage: text(e.errorMessage) || DESIGNER_MESSAGES.unknownError,
    httpStatus: Number.isFinite(status) ? status : 0,
    data: e.data,
  };
}

export function overlayReducer(state: OverlayState, event: OverlayEvent): OverlayState {
  switch (event.type) {
    case 'start':
      return initialOverlay;
    case 'navigate':
      return { ...initialOverlay, heard: state.heard };
    case 'hostTimeout':
      if (state.heard || state.phase !== 'loading') return state;
      return {
        phase: 'failed',
        heard: false,
        error: {
          errorCode: 'TIMED_OUT',
          errorMessage: 'The page engine did not start within 15 seconds.',
          httpStatus: 0,
        },
      };
    case 'frameSilent':
      if (state.heard || state.phase !== 'loading') return state;
      return {
        phase: 'failed',
        heard: false,
        error: { errorCode: 'MISSING_ENGINE', errorMessage: 'The page has no portal engine.', httpStatus: 0 },
      };
    case 'engineEvent': {
      const p = event.payload;
      if (p.error !== undefined) {
        const error = toPageOpenError(p.error);
        if (error.errorCode === 'MISSING_PARAMETERS') {
          const data = (error.data && typeof error.data === 'object' ? error.data : {}) as Record<string, unknown>;
          const parameters = toParameters(data.parameters);
          const missing = toParameters(data.missing).map((m) => m.name);
          return {
            phase: 'missingParameters',
            heard: true,
            missing: { pageId: text(data.pageId), title: text(data.title), parameters, missing },
          };
        }
        return { phase: 'failed', heard: true, error };
      }
      if (typeof p.progress === 'number') {
        if (p.progress >= 100) return { phase: 'ready', heard: true };
        return {
          phase: 'loading',
          mode: 'progress',
          message: text(p.step) || DESIGNER_MESSAGES.pleaseWait,
          progress: Math.max(0, Math.min(100, p.progress)),
          heard: true,
        };
      }
      // A warning (or anything else) changes nothing but tells that the engine talks.
      return state.heard ? state : ({ ...state, heard: true } as OverlayState);
    }
  }
}

/** Retry is impossible when the frame has no engine to ask again. */
export const canRetry = (error: PageOpenError) => error.errorCode !== 'MISSING_ENGINE';
/** Reset is offered for the listed codes (spec 2 §8: 19, 20, 61, 112, 113, 114, 115, 134). */
export const canReset = (error: PageOpenError) => offersReset(error.errorCode) || offersReset(error.httpStatus);

/** '{name} is required.' for each required parameter left empty. */
export function parameterErrors(parameters: PageParameter[], values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const p of parameters) {
    if (p.required && !(values[p.name] ?? '').trim()) errors[p.name] = DESIGNER_MESSAGES.required(p.name);
  }
  return errors;
}
