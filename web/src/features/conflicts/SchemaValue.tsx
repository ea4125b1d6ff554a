/**
 * A conflict's value in its field's own widget: the sub-schema at the conflict's JSON pointer
 * rendered with @rjsf/mui, read-only for Theirs / Mine / Base, editable for Edit. Loaded lazily
 * (the form library is big); `fallback` is shown when the schema does not cover the pointer.
 */
import Form from '@rjsf/mui';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useId, useMemo, type ReactNode } from 'react';
import { jsonValidator, normalizeSchema, transformErrors } from '../editors';
import { parseJsonValue, subSchemaAt } from './model';

export interface SchemaValueProps {
  /** The text of the file's schema. */
  schemaText: string;
  conflictId: string;
  /** The value as JSON text. */
  value: string;
  /** Editable: told the new value as compact JSON text. */
  onChange?: (json: string) => void;
  /** The form's accessible name. */
  label: string;
  fallback: ReactNode;
}

const UI_SCHEMA: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

function useSubSchema(schemaText: string, conflictId: string): RJSFSchema | null {
  return useMemo(() => {
    const parsed = parseJsonValue(schemaText);
    if (!parsed.ok) return null;
    const sub = subSchemaAt(normalizeSchema(parsed.value), conflictId);
    return sub ? ({ ...sub, title: sub.title ?? '' } as RJSFSchema) : null;
  }, [schemaText, conflictId]);
}

export default function SchemaValue({ schemaText, conflictId, value, onChange, label, fallback }: SchemaValueProps) {
  const schema = useSubSchema(schemaText, conflictId);
  // Several forms on one screen: each its own ids (labels stay bound to their inputs).
  const idPrefix = `sv${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const parsed = useMemo(() => parseJsonValue(value), [value]);
  if (!schema || !parsed.ok) return <>{fallback}</>;
  return (
    <div role="group" aria-label={label}>
      <Form
        schema={schema}
        uiSchema={UI_SCHEMA}
        validator={jsonValidator}
        formData={parsed.value}
        idPrefix={idPrefix}
        readonly={!onChange}
        liveValidate={onChange ? 'onChange' : undefined}
        showErrorList={false}
        noHtml5Validate
        transformErrors={transformErrors}
        onChange={(event) => onChange?.(JSON.stringify(event.formData ?? null))}
      />
    </div>
  );
}
