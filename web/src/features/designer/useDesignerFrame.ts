/**
 * The preview frame's life (spec 2 §4; engine/README.md "Design-mode protocol"): the preview
 * token (one per frame src, re-minted before it expires), the frame's src, the engine's messages (accepted only
 * through acceptEngineMessage), the overlay state machine with the host's timers, and the
 * designer → engine messages (navigate, refreshVersion, dataChanged).
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { previewApi, renewPreviewAfterMs, type PreviewToken } from '../../api/preview';
import type { Id } from '../../api/portal';
import { toApiError } from '../../api/errors';
import {
  acceptEngineMessage,
  designerFrameSrc,
  parseShortCode,
  sendToEngine,
  type FrameBaseOptions,
  type RegisteredShortCode,
} from './protocol';
import { initialOverlay, overlayReducer, SILENT_ENGINE_MS, START_TIMEOUT_MS } from './overlay';

export interface DesignerFrameOptions {
  domain: Id;
  portal: Id;
  pageId: string;
  /** null until portal.json is read (the src waits for it). */
  base: FrameBaseOptions | null;
  onWidgetClicked: (id: string, type: string) => void;
  /** Called at each Preparing To Render 100 (the page is ready). */
  onReady?: () => void;
}

export function useDesignerFrame({ domain, portal, pageId, base, onWidgetClicked, onReady }: DesignerFrameOptions) {
  const frameRef = useRef<HTMLIFrameElement | null>(null);
  const [token, setToken] = useState<(PreviewToken & { forBase: string }) | null>(null);
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [overlay, dispatch] = useReducer(overlayReducer, initialOverlay);
  const [shortCodes, setShortCodes] = useState<Record<string, RegisteredShortCode>>({});
  const heard = useRef(false);
  const pageRef = useRef(pageId);
  pageRef.current = pageId;
  const framePage = useRef<string | null>(null);
  const callbacks = useRef({ onWidgetClicked, onReady });
  callbacks.current = { onWidgetClicked, onReady };

  const baseKey = base ? JSON.stringify(base) : null;
  const baseKeyRef = useRef(baseKey);
  baseKeyRef.current = baseKey;

  // A token opens one frame src: on the frame origin it is a single-use ticket (the server
  // exchanges it for a cookie), so every new src (another base, a retry, a renewal) gets its own.
  const mint = useCallback(async () => {
    const forBase = baseKeyRef.current;
    if (forBase === null) return;
    try {
      const minted = await previewApi.token(domain, portal);
      if (baseKeyRef.current !== forBase) return; // the base changed meanwhile: its own mint follows
      setTokenError(null);
      setToken({ ...minted, forBase });
    } catch (error) {
      setTokenError(toApiError(error).errorMessage);
    }
  }, [domain, portal]);

  useEffect(() => {
    void mint();
  }, [mint, baseKey]);

  // Re-mint before expiry. The token is in the frame's first URL, so the frame is reloaded at the
  // page it shows (the designer re-sends its unsaved edits once the page is ready again).
  useEffect(() => {
    if (!token) return;
    const timer = window.setTimeout(() => void mint(), renewPreviewAfterMs(token));
    return () => window.clearTimeout(timer);
  }, [token, mint]);

  const src = useMemo(
    () =>
      token && base && token.forBase === baseKey
        ? designerFrameSrc(token.base, base, pageRef.current, window.location.origin)
        : null,
    [token, baseKey],
  );

  // A new src: a new first load (the host's 15000 ms start time-out runs again).
  useEffect(() => {
    if (!src) return;
    framePage.current = pageRef.current;
    heard.current = false;
    setShortCodes({});
    dispatch({ type: 'start' });
    const timer = window.setTimeout(() => dispatch({ type: 'hostTimeout' }), START_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [src]);

  // A page change inside the designer: navigate, never reload the frame.
  useEffect(() => {
    if (!src || framePage.current === pageId) return;
    framePage.current = pageId;
    setShortCodes({});
    dispatch({ type: 'navigate' });
    sendToEngine(frameRef.current, 'navigate', { pageId, params: {} });
  }, [pageId, src]);

  useEffect(() => {
    const listen = (event: MessageEvent) => {
      const msg = acceptEngineMessage(event, frameRef.current);
      if (!msg) return;
      heard.current = true;
      switch (msg.type) {
        case 'engineEvent': {
          const p = msg.payload;
          if (typeof p.progress === 'number' && p.progress >= 100) {
            setShortCodes({}); // the complete set follows
            dispatch({ type: 'engineEvent', payload: p });
            callbacks.current.onReady?.();
          } else dispatch({ type: 'engineEvent', payload: p });
          break;
        }
        case 'registerShortCode': {
          const code = parseShortCode(msg.payload);
          if (code) setShortCodes((all) => ({ ...all, [code.id]: code }));
          break;
        }
        case 'shortCodeClicked': {
          const id = typeof msg.payload.id === 'string' ? msg.payload.id : '';
          const type = typeof msg.payload.type === 'string' ? msg.payload.type : '';
          if (id) callbacks.current.onWidgetClicked(id, type);
          break;
        }
        default:
          break; // unknown types are ignored
      }
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, []);

  const silentTimer = useRef<number | undefined>(undefined);
  const onFrameLoad = useCallback(() => {
    window.clearTimeout(silentTimer.current);
    silentTimer.current = window.setTimeout(() => {
      if (!heard.current) dispatch({ type: 'frameSilent' });
    }, SILENT_ENGINE_MS);
  }, []);
  useEffect(() => () => window.clearTimeout(silentTimer.current), []);

  const send = useCallback((type: string, payload: unknown) => sendToEngine(frameRef.current, type, payload), []);

  /** Retry: ask the engine to run the first load again; with no engine heard, load the frame again. */
  const retry = useCallback(() => {
    if (!heard.current) {
      void mint();
      return;
    }
    dispatch({ type: 'start' });
    send('refreshVersion', { version: String(Date.now()) });
  }, [mint, send]);

  /** The workspace changed under the frame: run the first load again with a new version. */
  const refresh = useCallback(
    (version: string) => {
      if (!heard.current) return;
      dispatch({ type: 'start' });
      send('refreshVersion', { version });
    },
    [send],
  );

  /** Reset: a forced refresh (a new token and a new frame). */
  const reset = useCallback(() => {
    setShortCodes({});
    void mint();
  }, [mint]);

  const navigateWith = useCallback(
    (target: string, params: Record<string, string>) => {
      dispatch({ type: 'navigate' });
      send('navigate', { pageId: target, params });
    },
    [send],
  );

  return {
    frameRef,
    src,
    token,
    tokenError,
    overlay,
    shortCodes,
    onFrameLoad,
    send,
    retry,
    refresh,
    reset,
    navigateWith,
    mint,
  };
}
