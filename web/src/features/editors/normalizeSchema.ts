/**
 * The portal schemas mark a required field on the field itself (`required: true` or 'true',
 * spec 2 §3), which JSON Schema (and so ajv) refuses: move those marks into the parent's
 * `required` list. Everything else is kept as it is.
 */
type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const CHILD_MAPS = ['properties', 'definitions', '$defs', 'patternProperties'] as const;
const CHILD_LISTS = ['oneOf', 'anyOf', 'allOf'] as const;
const CHILD_NODES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else'] as const;

export function normalizeSchema(schema: unknown): SchemaNode {
  if (!isNode(schema)) return {};
  return normalizeNode(schema);
}

function normalizeNode(node: SchemaNode): SchemaNode {
  const out: SchemaNode = { ...node };
  const flag = out.required;
  if (flag === true || flag === 'true' || flag === false || flag === 'false') delete out.required;

  for (const key of CHILD_MAPS) {
    const map = out[key];
    if (!isNode(map)) continue;
    const next: SchemaNode = {};
    const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
    for (const [name, child] of Object.entries(map)) {
      if (!isNode(child)) {
        next[name] = child;
        continue;
      }
      if (key === 'properties' && (child.required === true || child.required === 'true')) required.add(name);
      next[name] = normalizeNode(child);
    }
    out[key] = next;
    if (key === 'properties' && required.size > 0) out.required = [...required];
  }
  for (const key of CHILD_LISTS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((child) => (isNode(child) ? normalizeNode(child) : child));
  }
  for (const key of CHILD_NODES) {
    const child = out[key];
    if (isNode(child)) out[key] = normalizeNode(child);
    else if (Array.isArray(child)) out[key] = child.map((c) => (isNode(c) ? normalizeNode(c) : c));
  }
  return out;
}
