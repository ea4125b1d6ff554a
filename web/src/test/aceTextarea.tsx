/**
 * happy-dom cannot run Ace: tests stand a textarea in for the Ace field, with the same label,
 * value, read-only state and theme (as data-theme). Use it with
 * `vi.mock('<path to>/editors/AceField', () => import('<path to>/test/aceTextarea'))`.
 */
export default function AceTextarea(props: {
  value: string;
  onChange: (v: string) => void;
  label: string;
  readOnly?: boolean;
  theme?: string;
}) {
  return (
    <textarea
      aria-label={props.label}
      data-theme={props.theme}
      value={props.value}
      readOnly={props.readOnly}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}
