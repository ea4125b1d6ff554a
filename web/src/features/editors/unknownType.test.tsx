// Spec 2 §5: a schema field of an unknown type reads 'Unsupported type ... used in schema part'.
import Form from '@rjsf/mui';
import type { RJSFSchema } from '@rjsf/utils';
import { render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { jsonValidator, translateString } from './jsonValidation';

it('names the unknown type of a field in the form', () => {
  const schema = { type: 'object', properties: { price: { type: 'money' } } } as unknown as RJSFSchema;
  render(<Form schema={schema} validator={jsonValidator} translateString={translateString} />);
  expect(screen.getByText('Unsupported type money used in schema part')).toBeInTheDocument();
});

it("reads 'Unsupported schema type' for a field with no type at all, never 'Unsupported type undefined'", () => {
  const schema = { type: 'object', properties: { legacy: { title: 'Legacy' } } } as unknown as RJSFSchema;
  render(
    <Form schema={schema} validator={jsonValidator} translateString={translateString} formData={{ legacy: 'x' }} />,
  );
  expect(screen.getByText('Unsupported schema type')).toBeInTheDocument();
  expect(screen.queryByText(/Unsupported type undefined/)).toBeNull();
});
