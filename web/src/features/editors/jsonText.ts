/**
 * Reading and writing a JSON file's text so a save changes only the data: the file's own
 * indentation (2 or 4 spaces, or a tab) and its trailing newline are kept.
 */

export interface JsonLayout {
  indent: string | number;
  trailingNewline: boolean;
}

/** A new or empty file: 2 spaces and a trailing newline. */
export const DEFAULT_LAYOUT: JsonLayout = { indent: 2, trailingNewline: true };

/** The layout of a JSON text: the first indented line gives the unit. */
export function detectLayout(text: string): JsonLayout {
  if (text.trim() === '') return DEFAULT_LAYOUT;
  const match = /\n([ \t]+)\S/.exec(text);
  let indent: string | number = 2;
  if (match) indent = match[1].startsWith('\t') ? '\t' : match[1].length;
  return { indent, trailingNewline: /\n$/.test(text) };
}

export function formatJson(data: unknown, layout: JsonLayout): string {
  const text = JSON.stringify(data ?? null, null, layout.indent);
  return layout.trailingNewline ? `${text}\n` : text;
}

export type ParsedJson = { ok: true; data: unknown } | { ok: false };

/** Empty text counts as no data (spec 2 §4); unparseable text is reported, not thrown. */
export function parseJsonText(text: string): ParsedJson {
  if (text.trim() === '') return { ok: true, data: undefined };
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
