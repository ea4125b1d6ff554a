/**
 * An rjsf validator that needs no code generation. The app's Content-Security-Policy allows
 * only `script-src 'self'` (no 'unsafe-eval'), and ajv (rjsf's own validator) compiles every
 * schema with `new Function`, which that policy forbids: in the browser every check failed and
 * Save never enabled. @cfworker/json-schema interprets the schema instead.
 */
import { Validator, type OutputUnit, type SchemaDraft } from '@cfworker/json-schema';
import {
  createErrorHandler,
  getDefaultFormState,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';

/** Errors that only say a child failed: the child's own error is reported instead. */
const CONTAINER_KEYWORDS = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  '$ref',
  'allOf',
  'dependentSchemas',
]);

function draftOf(schema: RJSFSchema): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared.includes('draft-04')) return '4';
  return '7';
}

/** '#/sections/0/name' → '.sections.0.name' (rjsf's property path). */
function propertyOf(instanceLocation: string): string {
  const parts = instanceLocation
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.map((p) => `.${p}`).join('');
}

function toRjsfError(unit: OutputUnit): RJSFValidationError {
  let property = propertyOf(unit.instanceLocation);
  const params: Record<string, unknown> = {};
  let message = unit.error;
  if (unit.keyword === 'required') {
    // 'Instance does not have required property "price".': the error belongs to the field.
    const missing = /required property "(.+)"/.exec(unit.error)?.[1];
    if (missing) {
      params.missingProperty = missing;
      property = `${property}.${missing}`;
      message = `must have required property '${missing}'`;
    }
  }
  return {
    name: unit.keyword,
    property,
    message,
    params,
    stack: `${property} ${message}`.trim(),
    schemaPath: unit.keywordLocation,
  };
}

class InterpretingValidator implements ValidatorType {
  private cache = new WeakMap<object, Validator>();

  /** A validator of schema, resolving '#/definitions/…' and '#/$defs/…' in root. */
  private validatorFor(schema: RJSFSchema, root: RJSFSchema = schema): Validator {
    let v = this.cache.get(schema);
    if (!v) {
      const withDefinitions =
        schema === root ? schema : { ...schema, definitions: root.definitions, $defs: root.$defs };
      v = new Validator(withDefinitions as object, draftOf(root), false);
      this.cache.set(schema, v);
    }
    return v;
  }

  rawValidation<Result = RJSFValidationError>(schema: RJSFSchema, formData?: unknown) {
    try {
      const result = this.validatorFor(schema).validate(formData ?? {});
      const errors = result.errors.filter((u) => !CONTAINER_KEYWORDS.has(u.keyword)).map(toRjsfError);
      return { errors: errors as Result[] };
    } catch (validationError) {
      return { errors: [] as Result[], validationError: validationError as Error };
    }
  }

  validateFormData(
    formData: unknown,
    schema: RJSFSchema,
    customValidate?: CustomValidator,
    transformErrors?: ErrorTransformer,
    uiSchema?: UiSchema,
  ): ValidationData<unknown> {
    const raw = this.rawValidation<RJSFValidationError>(schema, formData);
    let errors = raw.errors ?? [];
    if (raw.validationError) errors = [...errors, { stack: raw.validationError.message }];
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const errorSchema = toErrorSchema<unknown>(errors);
    if (!customValidate) return { errors, errorSchema };
    const full = getDefaultFormState(this, schema, formData, schema, true);
    const handler = customValidate(full, createErrorHandler(full), uiSchema, errorSchema);
    return validationDataMerge({ errors, errorSchema }, unwrapErrorHandler(handler));
  }

  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    try {
      return this.validatorFor(schema, rootSchema).validate(formData ?? {}).valid;
    } catch {
      return false;
    }
  }

  reset(): void {
    this.cache = new WeakMap();
  }
}

/** The JSON editor's validator: no eval, so it runs under the app's Content-Security-Policy. */
export const cspSafeValidator: ValidatorType = new InterpretingValidator();
