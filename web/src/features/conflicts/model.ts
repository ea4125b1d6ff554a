/**
 * The pure logic of conflict resolution and review: what a choice needs to be complete, the
 * request body, which choices survive a reload, the sub-schema at a conflict's JSON pointer.
 */
import type { ChoiceTake, Choices, Conflict, ConflictFile, FileKind } from '../../api/conflicts';
import { CONFLICT_MESSAGES as MSG } from './messages';

/** What the user picked for one conflict; `value` is the Edit text. */
export interface ConflictPick {
  take: ChoiceTake;
  value?: string;
}

/** path → conflict id → pick. */
export type Picks = Record<string, Record<string, ConflictPick>>;

export const isJsonKind = (kind: FileKind) => kind === 'json' || kind === 'translation';

/** A page of the portal (pages/*.html): it can be compared rendered. */
export const isPagePath = (path: string) => /^\/?pages\/.+\.html?$/i.test(path);

const isBinary = (file: Pick<ConflictFile, 'binary' | 'kind'>) => file.binary || file.kind === 'binary';

/** The choices a file offers: a binary file is mine or theirs. */
export function choiceOptions(file: Pick<ConflictFile, 'binary' | 'kind'>): ChoiceTake[] {
  return isBinary(file) ? ['mine', 'theirs'] : ['mine', 'theirs', 'base', 'value'];
}

/** The Edit field's error: JSON kinds must parse; null when the text is fine. */
export function editError(kind: FileKind, text: string): string | null {
  if (!isJsonKind(kind)) return null;
  try {
    JSON.parse(text);
    return null;
  } catch {
    return MSG.invalidJson;
  }
}

/** What Edit starts from: mine (theirs when mine is absent), pretty-printed for JSON kinds. */
export function editStart(kind: FileKind, conflict: Conflict): string {
  const text = conflict.mine ?? conflict.theirs ?? conflict.base ?? '';
  return isJsonKind(kind) ? (prettyJson(text) ?? text) : text;
}

/** Whether a pick is complete: chosen, and an Edit value that is valid for the kind. */
export function pickComplete(kind: FileKind, pick: ConflictPick | undefined): boolean {
  if (!pick) return false;
  if (pick.take !== 'value') return true;
  return pick.value !== undefined && editError(kind, pick.value) === null;
}

/** How many conflicts still need a (valid) choice. */
export function unresolvedCount(files: readonly ConflictFile[], picks: Picks): number {
  let left = 0;
  for (const file of files)
    for (const conflict of file.conflicts) if (!pickComplete(file.kind, picks[file.path]?.[conflict.id])) left++;
  return left;
}

/** The request's choices: exactly one per conflict; Edit values of JSON kinds as compact JSON. */
export function toChoices(files: readonly ConflictFile[], picks: Picks): Choices {
  const choices: Choices = {};
  for (const file of files) {
    const perFile: Choices[string] = {};
    for (const conflict of file.conflicts) {
      const pick = picks[file.path]?.[conflict.id];
      if (!pick) continue;
      if (pick.take !== 'value') perFile[conflict.id] = { take: pick.take };
      else {
        const value = pick.value ?? '';
        perFile[conflict.id] = { take: 'value', value: isJsonKind(file.kind) ? compactJson(value) : value };
      }
    }
    if (Object.keys(perFile).length > 0) choices[file.path] = perFile;
  }
  return choices;
}

const sameConflict = (a: Conflict, b: Conflict) => a.base === b.base && a.mine === b.mine && a.theirs === b.theirs;

/**
 * After a reload (the branch moved on): the picks of conflicts that are still there unchanged
 * (same file, id and texts); the others are asked again.
 */
export function retainPicks(before: readonly ConflictFile[], after: readonly ConflictFile[], picks: Picks): Picks {
  const kept: Picks = {};
  for (const file of after) {
    const old = before.find((f) => f.path === file.path);
    if (!old) continue;
    for (const conflict of file.conflicts) {
      const pick = picks[file.path]?.[conflict.id];
      const previous = old.conflicts.find((c) => c.id === conflict.id);
      if (pick && previous && sameConflict(previous, conflict))
        kept[file.path] = { ...kept[file.path], [conflict.id]: pick };
    }
  }
  return kept;
}

/** Compact JSON text pretty-printed (2 spaces); the text itself when it does not parse; null stays null. */
export function prettyJson(text: string | null): string | null {
  if (text === null) return null;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** A JSON text's value; undefined when absent (null) or unparseable. */
export function parseJsonValue(text: string | null): { ok: true; value: unknown } | { ok: false } {
  if (text === null) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

// ---------------------------------------------------------------------------
// Schemas

export type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The segments of a JSON pointer ('/a~1b/0' → ['a/b', '0']); null when it is not one. */
export function pointerSegments(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Follows a local $ref ('#/definitions/x'); the node itself otherwise. */
function deref(root: SchemaNode, node: SchemaNode, depth = 0): SchemaNode | null {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  if (depth > 20) return null;
  const segments = ref.startsWith('#') ? pointerSegments(ref.slice(1)) : null;
  if (!segments) return null;
  let target: unknown = root;
  for (const s of segments) target = isNode(target) ? target[s] : undefined;
  return isNode(target) ? deref(root, target, depth + 1) : null;
}

function child(node: SchemaNode, segment: string): unknown {
  const properties = node.properties;
  if (isNode(properties) && segment in properties) return properties[segment];
  const items = node.items;
  if (Array.isArray(items)) return /^\d+$/.test(segment) ? (items[Number(segment)] ?? node.additionalItems) : undefined;
  if (isNode(items)) return items;
  const patterns = node.patternProperties;
  if (isNode(patterns))
    for (const [pattern, schema] of Object.entries(patterns)) {
      try {
        if (new RegExp(pattern, 'u').test(segment)) return schema;
      } catch {
        // An unreadable pattern matches nothing.
      }
    }
  return isNode(node.additionalProperties) ? node.additionalProperties : undefined;
}

/**
 * The sub-schema of the field at a conflict's JSON pointer (walking properties, items,
 * patternProperties and additionalProperties, following local $refs), with the root's
 * definitions so its own $refs still resolve; null when the pointer leaves the schema.
 * A whole-file conflict ('file') is the root schema.
 */
export function subSchemaAt(schema: SchemaNode, conflictId: string): SchemaNode | null {
  const segments = conflictId === 'file' ? [] : pointerSegments(conflictId);
  if (!segments) return null;
  let node: SchemaNode | null = deref(schema, schema);
  for (const segment of segments) {
    if (!node) return null;
    const next = child(node, segment);
    node = isNode(next) ? deref(schema, next) : null;
  }
  if (!node) return null;
  const out: SchemaNode = { ...node };
  for (const key of ['definitions', '$defs'] as const)
    if (schema[key] !== undefined && out[key] === undefined) out[key] = schema[key];
  return out;
}
