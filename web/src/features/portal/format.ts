const pad = (n: number) => String(n).padStart(2, '0');

/** A time as 'MM/dd/y HH:mm' (spec 3 §2, local commits). */
export function formatTime(value: string | number | Date): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Branch labels are cut to 40 characters (spec 1 §9). */
export const BRANCH_LABEL_MAX = 40;
export function branchLabel(name: string): string {
  return name.length > BRANCH_LABEL_MAX ? `${name.slice(0, BRANCH_LABEL_MAX)}…` : name;
}
