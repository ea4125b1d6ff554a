import { useEffect, useState } from 'react';

/**
 * The value as it was `delayMs` after it last changed: a burst of changes (toggling many
 * cards, Select All) renders once, when it settles.
 */
export function useSettledValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, settled, delayMs]);
  return settled;
}
