import { useMemo } from 'react';
import type { Finding } from '../../api/readiness';
import { placeFindings, pointerOf, pointerSegments, useFileFindings } from '../readiness';
import { widgetInstancePath } from './designerApi';
import { asList, type PropertyField } from './properties';
import { FULL_SIZE } from './settings';

/** A property's pointer in the instance file ('/data/items/0/link'). */
export const propertyPointer = (...path: (string | number)[]) => pointerOf(['data', ...path]);

/**
 * The pointers the property panel shows fields for: each property (/data/<name>), and for a
 * SubEditor each item (/data/<name>/<i>) and its properties.
 */
export function propertyPointers(fields: readonly PropertyField[], values: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const field of fields) {
    out.add(propertyPointer(field.name));
    if (field.editor !== 'SubEditor') continue;
    asList(values[field.name]).forEach((_, i) => {
      out.add(propertyPointer(field.name, i));
      for (const sub of field.properties) out.add(propertyPointer(field.name, i, sub.name));
    });
  }
  return out;
}

/**
 * A finding of the media query being edited (/mediaQueries/<query>/<name>…) at its property's
 * field (/data/<name>…); other findings as they are.
 */
function asShown(f: Finding, query: string): Finding {
  const segments = pointerSegments(f.pointer);
  if (query === FULL_SIZE || segments[0] !== 'mediaQueries' || segments[1] !== query) return f;
  return { ...f, pointer: propertyPointer(...segments.slice(2)) };
}

/**
 * The readiness findings of a widget's instance file (widgets/database/<id>.json, issue 29):
 * `at` by the pointer of the property field that shows them, `rest` for the panel's list.
 */
export function usePropertyFindings(
  domain: string,
  portal: string,
  widgetId: string,
  fields: readonly PropertyField[] | undefined,
  values: Record<string, unknown>,
  query: string,
) {
  const findings = useFileFindings(domain, portal, widgetInstancePath(widgetId));
  const pointers = useMemo(() => (fields ? propertyPointers(fields, values) : new Set<string>()), [fields, values]);
  return useMemo(
    () =>
      placeFindings(
        findings.map((f) => asShown(f, query)),
        pointers,
      ),
    [findings, pointers, query],
  );
}
