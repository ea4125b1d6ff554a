/**
 * A widget type's property form (spec 2 §2 "Other field widgets": the widget property types):
 * built from `widgets/modules/<type>/config.probe.json` — `{name, properties: [{name, label,
 * editor, default, options?, properties? (SubEditor)}]}`.
 */
import { FULL_SIZE } from './settings';
import type { WidgetInstance } from './designerApi';

export const EDITOR_TYPES = [
  'AssetManager',
  'CheckBox',
  'ColorInput',
  'DropDown',
  'SubEditor',
  'JsonEditor',
  'LinkManager',
  'PageSelector',
  'RichTextInput',
  'TextInput',
  'TranslationSelector',
] as const;
export type EditorType = (typeof EDITOR_TYPES)[number];

export interface PropertyField {
  name: string;
  label: string;
  editor: EditorType;
  /** The probe's editor name when it is not one of the known ones (shown as TextInput). */
  unknownEditor?: string;
  default: unknown;
  /** DropDown choices as [value, label]. */
  options: [string, string][];
  /** SubEditor item fields. */
  properties: PropertyField[];
  required: boolean;
  description?: string;
}

export interface WidgetForm {
  name: string;
  fields: PropertyField[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));

function toOptions(value: unknown): [string, string][] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((o): [string, string][] => {
    if (typeof o === 'string' || typeof o === 'number' || typeof o === 'boolean') return [[String(o), String(o)]];
    if (o && typeof o === 'object') {
      const r = o as Record<string, unknown>;
      const v = r.value ?? r.key ?? r.id;
      if (v === undefined) return [];
      return [[str(v), str(r.label ?? r.name ?? r.text ?? v)]];
    }
    return [];
  });
}

function toField(raw: unknown, depth: number): PropertyField | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const name = str(r.name);
  if (!name) return null;
  const given = str(r.editor ?? r.type);
  const known = (EDITOR_TYPES as readonly string[]).find((t) => t.toLowerCase() === given.toLowerCase()) as
    EditorType | undefined;
  const editor: EditorType = known ?? 'TextInput';
  return {
    name,
    label: str(r.label ?? r.title) || name,
    editor,
    unknownEditor: known ? undefined : given || undefined,
    default: r.default ?? defaultFor(editor),
    options: toOptions(r.options ?? r.enum),
    properties: editor === 'SubEditor' && depth < 4 ? toFields(r.properties ?? r.fields, depth + 1) : [],
    required: r.required === true || r.required === 'true',
    description: typeof r.description === 'string' ? r.description : undefined,
  };
}

function toFields(value: unknown, depth: number): PropertyField[] {
  if (!Array.isArray(value)) return [];
  return value.map((v) => toField(v, depth)).filter((f): f is PropertyField => f !== null);
}

/** The form of a probe configuration (unknown editors fall back to TextInput). */
export function buildWidgetForm(probe: unknown): WidgetForm {
  const p = (probe && typeof probe === 'object' ? probe : {}) as Record<string, unknown>;
  return { name: str(p.name), fields: toFields(p.properties, 0) };
}

export function defaultFor(editor: EditorType): unknown {
  switch (editor) {
    case 'CheckBox':
      return false;
    case 'SubEditor':
      return [];
    case 'JsonEditor':
      return {};
    default:
      return '';
  }
}

/** A new SubEditor item: every field at its default. */
export function newItem(fields: PropertyField[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.name, structuredCloneSafe(f.default)]));
}

function structuredCloneSafe<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** The values the form shows for a media query: data with the query's overrides over it. */
export function valuesFor(instance: WidgetInstance, query: string): Record<string, unknown> {
  if (!query || query === FULL_SIZE) return instance.data ?? {};
  return { ...(instance.data ?? {}), ...(instance.mediaQueries?.[query] ?? {}) };
}

/**
 * The instance after one property changed: for 'Full Size' in `data`, otherwise in the query's
 * overrides (design §7: per media query where it differs).
 */
export function withProperty(instance: WidgetInstance, query: string, name: string, value: unknown): WidgetInstance {
  if (!query || query === FULL_SIZE) return { ...instance, data: { ...(instance.data ?? {}), [name]: value } };
  const overrides = { ...(instance.mediaQueries?.[query] ?? {}), [name]: value };
  return { ...instance, mediaQueries: { ...(instance.mediaQueries ?? {}), [query]: overrides } };
}

/** Moves item `from` to `to` (a SubEditor reorder). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

export const asList = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.map((v) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {})) : [];

/** A property's value as a text field shows it (objects as JSON, nothing as ''). */
export const asText = (v: unknown) =>
  typeof v === 'string' ? v : v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** A colour the swatch can show (#rrggbb). */
export const isHexColor = (value: string) => /^#[0-9a-fA-F]{6}$/.test(value);

/** A JSON property's text: its value pretty-printed ({} for none). */
export const jsonText = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

/**
 * The JSON editor's text after its value changed from outside (another widget chosen, a reload):
 * the text typed stays while it is the same data or not JSON yet; otherwise the new value's text.
 */
export function syncedJsonText(current: string, value: unknown): string {
  try {
    if (JSON.stringify(JSON.parse(current)) === JSON.stringify(value ?? {})) return current;
  } catch {
    // The text being typed is not JSON yet: keep it.
    return current;
  }
  return jsonText(value);
}

/** A SubEditor's items without item `index`. */
export const withoutItem = <T>(items: readonly T[], index: number): T[] => items.filter((_, i) => i !== index);

/** A SubEditor's items with one property of item `index` changed. */
export const withItemProperty = (
  items: readonly Record<string, unknown>[],
  index: number,
  name: string,
  value: unknown,
): Record<string, unknown>[] => items.map((it, i) => (i === index ? { ...it, [name]: value } : it));

/**
 * A LinkManager value is an href, or `{ type, value }` (docs/portal-format.md): the href the
 * Link Manager edits. Anything else reads as no link.
 */
export function linkHref(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string')
    return (value as { value: string }).value;
  return '';
}

/**
 * The value to store for a new href: the form the property had (an object keeps its form, with
 * the type the href now has), else the href.
 */
export function linkValue(previous: unknown, href: string, typeOf: (href: string) => string): unknown {
  if (previous && typeof previous === 'object' && !Array.isArray(previous))
    return { ...(previous as Record<string, unknown>), type: typeOf(href), value: href };
  return href;
}
