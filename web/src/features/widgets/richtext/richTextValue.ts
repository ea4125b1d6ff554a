/**
 * Values in and out of the rich-text editor. In: sanitised (links normalised). Out: sanitised;
 * an empty editor is ''; and a value that was plain text (no markup) stays plain text while the
 * edit is just one plain paragraph, so a text translation does not gain <p> wrappers.
 */
import { hasHtmlMarkup, sanitizeHtml } from '../../../lib/sanitizeHtml';

/** What the editor loads for a value. */
export const editorInput = (value: string | null | undefined): string => sanitizeHtml(value ?? '');

const SINGLE_PLAIN_PARAGRAPH = /^<p>([^<]*)<\/p>$/;
const EMPTY_DOCUMENT = /^(<p>(<br\s*\/?>)?<\/p>)*$/;

/** Decodes the entities of a text run ('a &amp; b' → 'a & b'). */
function decodeEntities(text: string): string {
  if (typeof document === 'undefined')
    return text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const textarea = document.createElement('textarea');
  textarea.innerHTML = text;
  return textarea.value;
}

/** The value an edit gives: the editor's HTML sanitised, or plain text where the original was plain. */
export function editorOutput(html: string, original: string | null | undefined): string {
  const clean = sanitizeHtml(html).trim();
  if (EMPTY_DOCUMENT.test(clean)) return '';
  const plainBefore = !hasHtmlMarkup(original ?? '');
  const single = SINGLE_PLAIN_PARAGRAPH.exec(clean);
  if (plainBefore && single) return decodeEntities(single[1]).replace(/\u00a0/g, ' ');
  return clean;
}
