/**
 * The JSON form's readiness findings (issue 29 item 2): each under the field its JSON pointer
 * names (FieldErrorTemplate, beside the schema's own messages), the others in a summary at the
 * top; and the arrival at a field (`pointer`: the Readiness screen's "Open").
 */
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import type { FieldErrorProps, RJSFSchema } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type { Finding } from '../../api/readiness';
import { FieldFindings, formFieldPointers, placeFindings, pointerOf, pointerSegments } from '../readiness';
import type { JsonFormContext } from './LinkTextWidget';

/** The form context with the findings by field pointer. */
export interface FindingsFormContext extends JsonFormContext {
  findingsAt?: ReadonlyMap<string, readonly Finding[]>;
}

/** The findings placed at the form's fields (`at`, by pointer) and the rest (`rest`: the summary). */
export function useFormFindings(findings: readonly Finding[] | undefined, schema: RJSFSchema, formData: unknown) {
  const fields = useMemo(
    () => (findings && findings.length > 0 ? formFieldPointers(schema as Record<string, unknown>, formData) : null),
    [findings, schema, formData],
  );
  return useMemo(() => placeFindings(findings ?? [], fields ?? []), [findings, fields]);
}

/**
 * A field's messages: the schema's errors (as @rjsf/mui shows them) and its readiness findings,
 * under the id the field's aria-describedby names.
 */
export function FieldErrorsWithFindings({ errors = [], fieldPathId, registry }: FieldErrorProps) {
  const context = registry.formContext as FindingsFormContext | undefined;
  const findings = fieldPathId.path.length > 0 ? context?.findingsAt?.get(pointerOf(fieldPathId.path)) : undefined;
  if (errors.length === 0 && !findings?.length) return null;
  const id = errorId(fieldPathId);
  return (
    <Box id={id}>
      {errors.map((error, i) => (
        <FormHelperText key={i} component="div" error id={`${id}-${i}`}>
          {error}
        </FormHelperText>
      ))}
      {findings && <FieldFindings findings={findings} />}
    </Box>
  );
}

/** The rjsf id of a pointer's field ('/items/0/title' → 'root_items_0_title'). */
export const fieldIdOf = (pointer: string) => ['root', ...pointerSegments(pointer)].join('_');

/**
 * Brings the field a pointer names into view and focuses it, once the form shows it: its own
 * control, else the first control inside it, else its messages. Tried for a few frames (the
 * form's widgets mount lazily); gives up quietly when the field is not there.
 */
export function useFocusPointer(root: RefObject<HTMLElement | null>, pointer: string | undefined) {
  const done = useRef(false);
  useEffect(() => {
    if (!pointer || done.current) return;
    const id = fieldIdOf(pointer);
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = () => {
      const box = root.current;
      const field =
        box?.querySelector<HTMLElement>(`[id="${CSS.escape(id)}"]`) ??
        box?.querySelector<HTMLElement>(
          `[id^="${CSS.escape(`${id}_`)}"]:is(input, textarea, select, [contenteditable])`,
        ) ??
        box?.querySelector<HTMLElement>(`[id="${CSS.escape(`${id}__error`)}"]`);
      if (field) {
        done.current = true;
        field.scrollIntoView?.({ block: 'center' });
        if (!field.matches('input, textarea, select, button, [contenteditable], [tabindex]'))
          field.setAttribute('tabindex', '-1');
        field.focus();
        return;
      }
      if (++tries < 20) timer = setTimeout(attempt, 50);
    };
    attempt();
    return () => clearTimeout(timer);
  }, [root, pointer]);
}
