import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { cspSafeValidator } from './cspSafeValidator';

// The shape of the passenger starter's menu and its companion schema.
const menuSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['title', 'sections'],
  properties: {
    title: { type: 'string', minLength: 1 },
    currency: { type: 'string', enum: ['EUR', 'GBP'] },
    sections: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'items'],
        properties: {
          name: { type: 'string', minLength: 1 },
          items: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'price'],
              properties: {
                name: { type: 'string' },
                price: { type: 'number', minimum: 0 },
                colour: { type: 'string', format: 'color' },
              },
            },
          },
        },
      },
    },
  },
};
const menu = () => ({
  title: 'Menu',
  currency: 'EUR',
  sections: [
    { name: 'Hot drinks', items: [{ name: 'Coffee', price: 3.5, colour: 'brown' }] },
    { name: 'Snacks', items: [{ name: 'Crisps', price: 2 }] },
  ],
});

afterEach(() => vi.unstubAllGlobals());

describe('the JSON editor validator', () => {
  it('validates without generating code (the app forbids eval), reporting each field', () => {
    // What the page's Content-Security-Policy does to `new Function`.
    vi.stubGlobal('Function', () => {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed");
    });
    const schema = menuSchema as RJSFSchema;
    expect(cspSafeValidator.validateFormData(menu(), schema).errors).toEqual([]);

    const broken = menu();
    broken.sections[0].name = '';
    const item: { name: string; price?: number } = broken.sections[1].items[0];
    delete item.price;
    const { errors, errorSchema } = cspSafeValidator.validateFormData(broken, schema);
    expect(errors.map((e) => [e.name, e.property])).toEqual([
      ['minLength', '.sections.0.name'],
      ['required', '.sections.1.items.0.price'],
    ]);
    expect(errorSchema).toMatchObject({ sections: { 0: { name: { __errors: [expect.any(String)] } } } });
  });

  it('matches oneOf options through $ref against the root schema', () => {
    const root: RJSFSchema = {
      definitions: {
        text: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
        image: { type: 'object', required: ['src'], properties: { src: { type: 'string' } } },
      },
      oneOf: [{ $ref: '#/definitions/text' }, { $ref: '#/definitions/image' }],
    };
    const image = { $ref: '#/definitions/image' } as RJSFSchema;
    expect(cspSafeValidator.isValid(image, { src: 'a.png' }, root)).toBe(true);
    expect(cspSafeValidator.isValid(image, { text: 'x' }, root)).toBe(false);
    expect(cspSafeValidator.validateFormData({ text: 'hello' }, root).errors).toEqual([]);
  });
});
