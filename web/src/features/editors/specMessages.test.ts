// Issue 22 item 11: the spec's own wording of the JSON editor's messages (spec 2 §5).
import { TranslatableString, type RJSFSchema } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { jsonValidator, transformErrorsFor, translateString } from './jsonValidation';

const messages = (schema: RJSFSchema, data: unknown) =>
  jsonValidator.validateFormData(data, schema, undefined, transformErrorsFor(schema)).errors.map((e) => e.message);

describe('JSON editor messages in the spec wording', () => {
  it("a required number reads 'The field is required.', other fields 'This field is required'", () => {
    const schema: RJSFSchema = {
      type: 'object',
      required: ['price', 'name'],
      properties: { price: { type: 'number' }, name: { type: 'string' } },
    };
    expect(messages(schema, {})).toEqual(expect.arrayContaining(['The field is required.', 'This field is required']));
  });
  it("a required number inside array rows also reads 'The field is required.'", () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: {
        rows: { type: 'array', items: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } },
      },
    };
    expect(messages(schema, { rows: [{}] })).toContain('The field is required.');
  });
  it("oneOf data matching no schema reads 'Could not find a matching schema for the data'", () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: { v: { oneOf: [{ type: 'string', maxLength: 2 }, { type: 'number' }] } },
    };
    expect(messages(schema, { v: 'long text' })).toContain('Could not find a matching schema for the data');
  });
  it("a field rjsf cannot render reads 'Unsupported schema type'", () => {
    expect(translateString(TranslatableString.UnsupportedField)).toBe('Unsupported schema type');
    expect(translateString(TranslatableString.UnsupportedFieldWithIdAndReason, ['root_x', 'odd'])).toBe(
      'Unsupported schema type',
    );
    expect(translateString(TranslatableString.AddItemButton)).toBe('Add Item');
  });
  it("a field of an unknown type reads 'Unsupported type <type> used in schema part'", () => {
    const reason = translateString(TranslatableString.UnknownFieldType, ['money']);
    expect(reason).toBe('Unsupported type money used in schema part');
    expect(translateString(TranslatableString.UnsupportedFieldWithIdAndReason, ['root_price', reason])).toBe(reason);
    expect(translateString(TranslatableString.UnsupportedFieldWithReason, [reason])).toBe(reason);
  });
});
