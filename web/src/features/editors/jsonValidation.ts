/**
 * The JSON editor's validator and its spec messages (spec 2 §5 "JSON editor and fields").
 * Formats the validator does not know ('textarea', 'color': widget hints) accept any text.
 */
import {
  englishStringTranslator,
  TranslatableString,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
} from '@rjsf/utils';
import { cspSafeValidator } from './cspSafeValidator';
import { EDITOR_MESSAGES } from './messages';

export const jsonValidator = cspSafeValidator;

/** The schema at a form path ('.a.0.b'), through properties and items; undefined when unknown. */
function schemaAt(schema: RJSFSchema | undefined, property: string): RJSFSchema | undefined {
  let at = schema;
  for (const part of property.split('.').filter(Boolean)) {
    if (!at || typeof at !== 'object') return undefined;
    if (/^\d+$/.test(part) && at.items) at = (Array.isArray(at.items) ? at.items[0] : at.items) as RJSFSchema;
    else at = at.properties?.[part] as RJSFSchema | undefined;
  }
  return at;
}

const isNumeric = (s: RJSFSchema | undefined) => s?.type === 'number' || s?.type === 'integer';

/** One error in the spec's words (spec 2 §5 "JSON editor and fields"). */
function specMessage(error: RJSFValidationError, schema?: RJSFSchema): RJSFValidationError {
  switch (error.name) {
    case 'required':
      // A required number: 'The field is required.'; any other field 'This field is required'.
      return {
        ...error,
        message: isNumeric(schemaAt(schema, error.property ?? ''))
          ? EDITOR_MESSAGES.requiredNumber
          : EDITOR_MESSAGES.required,
      };
    case 'pattern':
      return { ...error, message: EDITOR_MESSAGES.pattern };
    case 'oneOf':
      return { ...error, message: EDITOR_MESSAGES.noMatchingSchema };
    default:
      return error;
  }
}

/** The spec's messages for a form of `schema` (a required number reads 'The field is required.'). */
export const transformErrorsFor =
  (schema?: RJSFSchema): ErrorTransformer =>
  (errors) =>
    errors.map((error) => specMessage(error, schema));

export const transformErrors: ErrorTransformer = transformErrorsFor();

const UNSUPPORTED = new Set<string>([
  TranslatableString.UnsupportedField,
  TranslatableString.UnsupportedFieldWithId,
  TranslatableString.UnsupportedFieldWithReason,
  TranslatableString.UnsupportedFieldWithIdAndReason,
]);

const WITH_REASON = new Set<string>([
  TranslatableString.UnsupportedFieldWithReason,
  TranslatableString.UnsupportedFieldWithIdAndReason,
]);

/** The texts given for unknown types, which rjsf passes back as an unsupported field's reason. */
const unknownTypeTexts = new Set<string>();

/**
 * rjsf's own texts, with the spec's 'Unsupported type … used in schema part' for a field of an
 * unknown type and 'Unsupported schema type' for any other field it cannot render.
 */
export function translateString(text: TranslatableString, params?: string[]): string {
  if (text === TranslatableString.UnknownFieldType) {
    // rjsf passes String(schema.type): 'undefined' for a field with no type at all, which is an
    // unsupported field, not an unknown type.
    const type = params?.[0] ?? '';
    if (type === '' || type === 'undefined') return EDITOR_MESSAGES.unsupportedSchemaType;
    const message = EDITOR_MESSAGES.unknownType(type);
    unknownTypeTexts.add(message);
    return message;
  }
  if (UNSUPPORTED.has(text)) {
    const reason = WITH_REASON.has(text) ? params?.at(-1) : undefined;
    return reason !== undefined && unknownTypeTexts.has(reason) ? reason : EDITOR_MESSAGES.unsupportedSchemaType;
  }
  return englishStringTranslator(text, params);
}

/**
 * What a link field accepts: an absolute URL (https:, mailto:, …) or a path in the portal
 * ('/x', 'pages/a.html', '#/anchor'); never whitespace.
 */
export function isValidLink(value: string): boolean {
  if (value === '' || /\s/.test(value)) return value === '';
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    try {
      new URL(value);
      return true;
    } catch {
      return false;
    }
  }
  return /^[\w\-./~%?=&#:@+!$,;'()*[\]]+$/.test(value);
}
