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
