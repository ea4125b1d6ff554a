/**
 * The designer side of the design-mode protocol (engine/README.md "Design-mode protocol"; spec 2
 * §4 "Pages and designer"). PREVIEW_SANDBOX, previewUrl, acceptEngineMessage and sendToEngine are
 * the README's helper code (tested there against the engine), typed; frameBase adds the output
 * path and language segments of spec 2 §4; frameSandbox and frameOrigin the frame origin.
 */
import { MASTER_PAGE_ID } from '../../api/pages';

// The preview iframe: <iframe sandbox="allow-scripts allow-forms" src={previewUrl(…)}>. No
// allow-popups: a page's script could open a window on any host with what it read.
export const PREVIEW_SANDBOX = 'allow-scripts allow-forms';

/**
 * The frame's origin: that of its src when the server serves the frame on an origin of its own
 * (--frame-addr, docs/operations.md), else null (the app's origin: the frame runs in an opaque
 * origin and its messages come from 'null').
 */
export function frameOrigin(src: string | null | undefined, appOrigin: string): string | null {
  if (!src) return null;
  try {
    const origin = new URL(src, appOrigin).origin;
    return origin === appOrigin || origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The iframe's sandbox: on its own origin the frame keeps it (its files are read with a cookie). */
export function frameSandbox(src: string | null | undefined, appOrigin: string): string {
  return frameOrigin(src, appOrigin) ? `${PREVIEW_SANDBOX} allow-same-origin` : PREVIEW_SANDBOX;
}

/** The synthetic sitemap root, opened at #/master-page. */
export { MASTER_PAGE_ID };

// previewUrl: base is '/api/v1/workspace/<token>/<domainId>/<portalId>/' (with the output path and
// language segments where they apply; on the frame origin an absolute URL with a single-use
// ticket); appOrigin is the designer's window.location.origin.
export function previewUrl(base: string, pageId: string, appOrigin: string): string {
  return (
    base + 'index.html?designMode=1&parentOrigin=' + encodeURIComponent(appOrigin) + '#/' + encodeURIComponent(pageId)
  );
}

export interface EngineMessage {
  type: string;
  payload: Record<string, unknown>;
}

// acceptEngineMessage: the {type, payload} of a message from our preview frame, else null.
// On the app's origin the frame is an opaque origin, so its messages arrive with event.origin ===
// 'null'; on the frame origin they come from that origin (frameOrigin of the frame's src).
export function acceptEngineMessage(
  event: Pick<MessageEvent, 'source' | 'origin' | 'data'>,
  frame: HTMLIFrameElement | null | undefined,
  appOrigin: string = window.location.origin,
): EngineMessage | null {
  // Stricter than the README's copy: a frame without a window (not loaded, removed) accepts nothing,
  // so a message whose source is null cannot match it.
  if (!frame?.contentWindow || event.source !== frame.contentWindow) return null;
  if (event.origin !== (frameOrigin(frame.getAttribute('src'), appOrigin) ?? 'null')) return null;
  if (typeof event.data !== 'string') return null;
  try {
    const msg = JSON.parse(event.data) as { type?: unknown; payload?: unknown } | null;
    if (!msg || typeof msg.type !== 'string') return null;
    const payload = msg.payload && typeof msg.payload === 'object' ? (msg.payload as Record<string, unknown>) : {};
    return { type: msg.type, payload };
  } catch {
    return null;
  }
}

// sendToEngine: an opaque origin cannot be named as a targetOrigin, so this is the one place that
// posts to '*'. It goes to this frame's window only; send nothing secret (no tokens).
export function sendToEngine(frame: HTMLIFrameElement | null | undefined, type: string, payload: unknown): void {
  frame?.contentWindow?.postMessage(JSON.stringify({ type, payload }), '*');
}

export interface FrameBaseOptions {
  /** taskRunnerSettings.active of portal.json. */
  taskRunnerActive?: boolean;
  /** taskRunnerSettings.outputPath (default 'pw-dist'). */
  outputPath?: string | null;
  /** languageSettings.languageMode; the language segment only in MULTILANGUAGE mode. */
  languageMode?: string | null;
  language?: string | null;
}

export const DEFAULT_OUTPUT_PATH = 'pw-dist';

const trimSlashes = (value: string) => value.replace(/^\/+|\/+$/g, '');

/** base + [outputPath/] + [language/] (spec 2 §4: the master page's frame URL). */
export function frameBase(base: string, options: FrameBaseOptions): string {
  let url = base.endsWith('/') ? base : `${base}/`;
  if (options.taskRunnerActive) {
    const output = trimSlashes(options.outputPath || DEFAULT_OUTPUT_PATH);
    if (output) url += output.split('/').map(encodeURIComponent).join('/') + '/';
  }
  if (options.languageMode === 'MULTILANGUAGE' && options.language) url += encodeURIComponent(options.language) + '/';
  return url;
}

/**
 * The frame's src for a page (#/master-page for the master page). In TRANSLATION mode the
 * language is a query (`?lang=`, the engine's language choice) instead of a path segment.
 */
export function designerFrameSrc(base: string, options: FrameBaseOptions, pageId: string, appOrigin: string): string {
  const url = previewUrl(frameBase(base, options), pageId || MASTER_PAGE_ID, appOrigin);
  if (options.languageMode !== 'TRANSLATION' || !options.language) return url;
  const hash = url.indexOf('#');
  return `${url.slice(0, hash)}&lang=${encodeURIComponent(options.language)}${url.slice(hash)}`;
}

// ---------------------------------------------------------------------------
// Message payloads (untrusted: checked field by field)

export interface ShortCodeRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RegisteredShortCode {
  id: string;
  type: string;
  query: string;
  rect: ShortCodeRect;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A registerShortCode payload, or null when it is not one. */
export function parseShortCode(payload: Record<string, unknown>): RegisteredShortCode | null {
  const id = str(payload.id);
  if (!id) return null;
  const rect = (payload.rect && typeof payload.rect === 'object' ? payload.rect : {}) as Record<string, unknown>;
  return {
    id,
    type: str(payload.type),
    query: str(payload.query) || 'Full Size',
    rect: {
      x: num(rect.x),
      y: num(rect.y),
      width: Math.max(0, num(rect.width)),
      height: Math.max(0, num(rect.height)),
    },
  };
}
