/** Pure rules of the value history screens: how values read, timelines grouped, blame filtered. */
import type { BlameRow, ValueChange } from '../../api/valueHistory';
import { VALUE_HISTORY_MESSAGES as MSG } from './messages';

/** A value (JSON text, null: absent) as people read it: a text as itself, else its JSON. */
export function display(value: string | null): string {
  if (value === null) return MSG.absent;
  try {
    const v: unknown = JSON.parse(value);
    return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  } catch {
    return value;
  }
}

const IMAGE = /\.(png|jpe?g|gif|webp|svg|bmp|tiff?)$/i;

/** The value is a text naming an image file (shown as images side by side). */
export function imagePath(value: string | null): string | null {
  if (value === null) return null;
  try {
    const v: unknown = JSON.parse(value);
    return typeof v === 'string' && IMAGE.test(v) && !/^[a-z][a-z0-9+.-]*:/i.test(v) ? v : null;
  } catch {
    return null;
  }
}

/** One row of a timeline: a commit (or the uncommitted work) with its changes, by language. */
export interface TimelineItem {
  id: string;
  commit: string;
  uncommitted: boolean;
  author: string;
  time: string | null;
  message: string;
  changes: ValueChange[];
}

/** Changes grouped by commit, in the server's order (newest first, uncommitted first). */
export function timeline(entries: readonly ValueChange[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  const byId = new Map<string, TimelineItem>();
  for (const e of entries) {
    const id = e.uncommitted ? 'uncommitted' : e.commit;
    let item = byId.get(id);
    if (!item) {
      item = {
        id,
        commit: e.commit,
        uncommitted: e.uncommitted,
        author: e.author,
        time: e.time,
        message: e.message,
        changes: [],
      };
      byId.set(id, item);
      items.push(item);
    }
    item.changes.push(e);
  }
  return items;
}

export interface BlameFilter {
  author: string;
  from: string;
  to: string;
}

/** Rows by author ('' any) and day range (YYYY-MM-DD, inclusive; '' open), as the server's CSV filters. */
export function filterBlame(rows: readonly BlameRow[], f: BlameFilter): BlameRow[] {
  return rows.filter((r) => {
    if (f.author && r.author !== f.author) return false;
    if (!f.from && !f.to) return true;
    if (!r.time) return false;
    const day = r.time.slice(0, 10);
    return (!f.from || day >= f.from) && (!f.to || day <= f.to);
  });
}

/** The authors of a blame, sorted. */
export const authorsOf = (rows: readonly BlameRow[]) =>
  [...new Set(rows.map((r) => r.author).filter(Boolean))].sort((a, b) => a.localeCompare(b));

const cell = (s: string) => {
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The rows as CSV for an auditor (columns as the server's ?format=csv). */
export function blameCsv(rows: readonly BlameRow[]): string {
  const lines = [['key', 'pointer', 'value', 'commit', 'author', 'email', 'time', 'message'].join(',')];
  for (const r of rows) {
    const value = r.value === null ? '' : display(r.value);
    lines.push(
      [r.path, r.pointer, value, r.uncommitted ? '(uncommitted)' : r.commit, r.author, r.email, r.time ?? '', r.message]
        .map(cell)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
