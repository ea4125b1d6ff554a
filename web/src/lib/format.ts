/** "1 e-mail", "2 e-mails", "0 e-mails": a count with its noun in the right number. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${String(count)} ${count === 1 ? singular : pluralForm}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * 'MM/dd/y HH:mm' in local time (spec 1 §9, spec 3 §2): every date-time the screens show.
 * '' for a missing or unreadable value.
 */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An API code in words: 'PORTAL_CREATED' → 'Portal created'. */
export function codeLabel(code: string): string {
  const words = code.toLowerCase().replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * A byte count as the asset manager shows it (spec 2 §9): B, KB, MB, GB, TB at 1024 with
 * 2 decimals ('1.50 KB'); bytes stay whole ('512 B'). '' for a missing or negative value.
 */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${String(value)} B` : `${value.toFixed(2)} ${SIZE_UNITS[unit]}`;
}
