/** Hidden from sight, read by screen readers (sx of the element). */
export const visuallyHidden = {
  position: 'absolute',
  // Strings: in sx a number up to 1 is a fraction (width 1 is 100%).
  width: '1px',
  height: '1px',
  padding: 0,
  margin: '-1px',
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
