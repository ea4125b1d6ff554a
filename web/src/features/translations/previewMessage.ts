/**
 * The design-mode message that tells the preview frame a translation changed (spec 2 §4; the
 * engine's `translation_updated`, engine/portal-engine.js): a JSON string
 * `{"type":"translation_updated","payload":{"key":…,"value":…}}` posted to the frame's window.
 * The frame is sandboxed (an opaque origin, engine/README.md "Design-mode protocol"), so the
 * only target origin that reaches it is "*": the message holds nothing secret, and the engine
 * accepts it only from its parent at the origin it was given. With `language`, the payload
 * names it and an engine showing another language ignores the message.
 */
export const TRANSLATION_UPDATED = 'translation_updated';

export function translationUpdatedMessage(key: string, value: string, language?: string): string {
  const payload: { key: string; value: string; language?: string } = { key, value };
  if (language) payload.language = language;
  return JSON.stringify({ type: TRANSLATION_UPDATED, payload });
}

/** Posts the message to the preview frame; nothing happens without a frame (or its window). */
export function postTranslationUpdated(
  frame: HTMLIFrameElement | null,
  key: string,
  value: string,
  language?: string,
): void {
  const target = frame?.contentWindow;
  if (!target) return;
  target.postMessage(translationUpdatedMessage(key, value, language), '*');
}
