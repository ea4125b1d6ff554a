/** Elapsed-time display of notification cards (spec 3 §9): ticks every 5 s. */
export const ELAPSED_TICK_MS = 5000;

/**
 * Seconds as text: up to 60 as whole seconds; above 60 as minutes, above 3600 as hours, above
 * 86400 as days, with 2 decimals (e.g. '1.50 minutes').
 */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  if (s > 86400) return `${(s / 86400).toFixed(2)} days`;
  if (s > 3600) return `${(s / 3600).toFixed(2)} hours`;
  if (s > 60) return `${(s / 60).toFixed(2)} minutes`;
  const whole = Math.floor(s);
  return `${whole} ${whole === 1 ? 'second' : 'seconds'}`;
}
