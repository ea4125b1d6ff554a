/**
 * Placing readiness findings in the editors (issue 29 "live in the editors"): by JSON pointer at
 * a form field, by line in Ace's gutter, by file in the File Explorer and the Page Manager. Pure
 * functions; the marks that show them are FindingMark.tsx's.
 */
import type { Finding, Severity } from '../../api/readiness';

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** The most severe of the findings (undefined for none). */
export function worstSeverity(findings: readonly Finding[]): Severity | undefined {
  let worst: Severity | undefined;
  for (const f of findings) if (!worst || (RANK[f.severity] ?? 0) > RANK[worst]) worst = f.severity;
  return worst;
}

/** The findings most severe first (errors, warnings, infos), each group in its given order. */
export const bySeverity = (findings: readonly Finding[]): Finding[] =>
  [...findings].sort((a, b) => (RANK[b.severity] ?? 0) - (RANK[a.severity] ?? 0));

/** How many findings of each severity. */
export function severityCounts(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) if (f.severity in counts) counts[f.severity]++;
  return counts;
}

/** A JSON pointer's segments ('/items/0/a~1b' → ['items', '0', 'a/b']; '' → []). */
export function pointerSegments(pointer: string | undefined): string[] {
  if (!pointer || pointer === '/') return [];
  const body = pointer.startsWith('#') ? decodeURIComponent(pointer.slice(1)) : pointer;
  return body
    .replace(/^\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The JSON pointer of a path (['items', 0, 'title'] → '/items/0/title'; [] → ''). */
export const pointerOf = (path: readonly (string | number)[]): string =>
  path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The findings by their (normalised) pointer; findings without one are left out. */
export function findingsByPointer(findings: readonly Finding[]): Map<string, Finding[]> {
  const out = new Map<string, Finding[]>();
  for (const f of findings) {
    const segments = pointerSegments(f.pointer);
    if (segments.length === 0) continue;
    const key = pointerOf(segments);
    const list = out.get(key);
    if (list) list.push(f);
    else out.set(key, [f]);
  }
  return out;
}

/**
 * Splits findings into those at one of `fields` (pointers; a finding inside a field that has
 * no finer field of its own goes to the nearest one above it) and the rest (no pointer, or no
 * field holds it).
 */
export function placeFindings(
  findings: readonly Finding[],
  fields: Iterable<string>,
): { at: Map<string, Finding[]>; rest: Finding[] } {
  const known = new Set(fields);
  const at = new Map<string, Finding[]>();
  const rest: Finding[] = [];
  for (const f of findings) {
    const segments = pointerSegments(f.pointer);
    let placed = false;
    for (let n = segments.length; n > 0 && !placed; n--) {
      const candidate = pointerOf(segments.slice(0, n));
      if (!known.has(candidate)) continue;
      const list = at.get(candidate);
      if (list) list.push(f);
      else at.set(candidate, [f]);
      placed = true;
    }
    if (!placed) rest.push(f);
  }
  return { at, rest };
}

type Json = unknown;
type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A local $ref ('#/definitions/x', '#/$defs/x') resolved against the root schema. */
function resolveRef(schema: Schema, root: Schema, depth = 0): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 8) return schema;
  let node: unknown = root;
  for (const s of pointerSegments(ref)) node = isObject(node) ? node[s] : undefined;
  return isObject(node) ? resolveRef(node, root, depth + 1) : schema;
}

/**
 * The pointers of the fields a schema form shows for `data` (rjsf: every property of an object
 * schema, every item of an array in the data; data outside the schema too, where its schema
 * allows it). The root ('') is not a field: its findings belong in the form's summary.
 */
export function formFieldPointers(schema: Schema, data: Json, limit = 20_000): Set<string> {
  const out = new Set<string>();
  const walk = (node: Schema | undefined, value: Json, path: (string | number)[]) => {
    if (out.size >= limit) return;
    const s = node ? resolveRef(node, schema) : undefined;
    if (path.length > 0) out.add(pointerOf(path));
    const props = s && isObject(s.properties) ? s.properties : undefined;
    if (props || isObject(value)) {
      const names = new Set([...Object.keys(props ?? {}), ...(isObject(value) ? Object.keys(value) : [])]);
      for (const name of names) {
        const child = props?.[name];
        if (!isObject(child) && s?.additionalProperties === false) continue;
        walk(
          isObject(child) ? child : isObject(s?.additionalProperties) ? s.additionalProperties : undefined,
          isObject(value) ? value[name] : undefined,
          [...path, name],
        );
      }
    }
    if (Array.isArray(value)) {
      const items = s?.items;
      value.forEach((item, i) =>
        walk(Array.isArray(items) ? (items[i] as Schema) : isObject(items) ? items : undefined, item, [...path, i]),
      );
    }
  };
  walk(schema, data, []);
  return out;
}

/** An Ace gutter annotation (row 0-based). */
export interface LineAnnotation {
  row: number;
  column: number;
  text: string;
  type: 'error' | 'warning' | 'info';
}

/** The findings with a line as Ace annotations (one per finding; Ace groups a row's). */
export const lineAnnotations = (findings: readonly Finding[]): LineAnnotation[] =>
  findings
    .filter((f) => typeof f.line === 'number' && f.line > 0)
    .map((f) => ({ row: f.line! - 1, column: 0, text: f.message, type: f.severity }));

/** The number of error findings per path (no leading slash). */
export function errorCounts(byPath: ReadonlyMap<string, readonly Finding[]>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [path, list] of byPath) {
    const n = list.filter((f) => f.severity === 'error').length;
    if (n > 0) out.set(path, n);
  }
  return out;
}

/** The error count of the files under a folder ('/images' or 'images'; '/' the whole portal). */
export function folderErrorCount(counts: ReadonlyMap<string, number>, folder: string): number {
  const prefix = folder.replace(/^\/+|\/+$/g, '');
  let total = 0;
  for (const [path, n] of counts) if (prefix === '' || path.startsWith(`${prefix}/`)) total += n;
  return total;
}

/** A workspace path as findings name it: no leading slash. */
export const findingPath = (path: string): string => path.replace(/^\/+/, '');
