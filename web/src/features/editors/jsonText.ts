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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The file's data with only the author's edits applied: `before` is what the form started from
 * (the file with the schema's defaults filled in), `after` what it shows now. A value the author
 * did not change stays as the file has it (a default the form filled in is not added), so a merge
 * sees exactly the fields the author touched.
 */
export function applyEdits(original: unknown, before: unknown, after: unknown): unknown {
  if (same(before, after)) return original;
  if (!isObject(before) || !isObject(after) || !(original === undefined || isObject(original))) return after;
  const result: Record<string, unknown> = { ...(original ?? {}) };
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const next = key in after ? applyEdits(original?.[key], before[key], after[key]) : undefined;
    if (next === undefined) delete result[key];
    else result[key] = next;
  }
  return result;
}

/**
 * Where a JSON text stops being JSON, as 'line 3, column 5: …'; null when it is JSON (an empty
 * text is not). The browser's message gives a position; line and column are counted from it.
 */
export function jsonSyntaxError(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const pos = /position (\d+)/.exec(message);
    const at = pos ? Math.min(Number(pos[1]), text.length) : text.length;
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    const why = message.replace(/\s*(in JSON )?at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
    return `line ${line}, column ${column}: ${why}`;
  }
}
