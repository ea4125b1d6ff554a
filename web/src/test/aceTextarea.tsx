/**
 * happy-dom cannot run Ace: tests stand a textarea in for the Ace field, with the same label,
 * value, read-only state, theme (as data-theme) and mode (as data-mode). Use it with
 * `vi.mock('<path to>/editors/AceField', () => import('<path to>/test/aceTextarea'))`.
 * Gutter annotations show as data-annotations ('3:error:message|…', rows 1-based as lines);
 * a goTo focuses the textarea and sets data-goto-line.
 */
import { useEffect, useRef } from 'react';

export default function AceTextarea(props: {
  value: string;
  onChange: (v: string) => void;
  label: string;
  readOnly?: boolean;
  theme?: string;
  mode?: string;
  annotations?: Array<{ row: number; type?: string; text: string }>;
  goTo?: { line: number } | null;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const goTo = props.goTo;
  useEffect(() => {
    if (goTo) ref.current?.focus();
  }, [goTo]);
  return (
    <textarea
      ref={ref}
      aria-label={props.label}
      data-theme={props.theme}
      data-mode={props.mode}
      data-annotations={props.annotations?.map((a) => `${a.row + 1}:${a.type ?? ''}:${a.text}`).join('|') || undefined}
      data-goto-line={goTo?.line}
      value={props.value}
      readOnly={props.readOnly}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}
