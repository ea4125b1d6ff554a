import { describe, expect, it } from 'vitest';
import type { BlameRow, ValueChange } from '../../api/valueHistory';
import { authorsOf, blameCsv, display, filterBlame, imagePath, timeline } from './model';

const change = (over: Partial<ValueChange>): ValueChange => ({
  commit: 'c1',
  uncommitted: false,
  author: 'Ann',
  email: 'ann@example.com',
  time: '2025-03-01T10:00:00Z',
  message: 'm',
  path: 'translations/en.json',
  old: null,
  new: '"x"',
  ...over,
});

const row = (over: Partial<BlameRow>): BlameRow => ({
  pointer: '/a',
  path: 'a',
  value: '"A"',
  commit: 'c1',
  uncommitted: false,
  author: 'Ann',
  email: 'ann@example.com',
  time: '2025-03-01T10:00:00Z',
  message: 'first',
  ...over,
});

describe('value history model', () => {
  it('shows texts as themselves, other values as JSON, absence in words', () => {
    expect(display('"Hello"')).toBe('Hello');
    expect(display('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(display(null)).toBe('(not set)');
    expect(imagePath('"images/logo.png"')).toBe('images/logo.png');
    expect(imagePath('"https://x/logo.png"')).toBeNull();
    expect(imagePath('"logo"')).toBeNull();
  });

  it('groups the languages of one commit, keeping the order', () => {
    const items = timeline([
      change({ uncommitted: true, commit: '', lang: 'en_GB' }),
      change({ commit: 'c2', lang: 'en_GB' }),
      change({ commit: 'c2', lang: 'ar_SA' }),
      change({ commit: 'c1', lang: 'en_GB' }),
    ]);
    expect(items.map((i) => [i.id, i.changes.map((c) => c.lang)])).toEqual([
      ['uncommitted', ['en_GB']],
      ['c2', ['en_GB', 'ar_SA']],
      ['c1', ['en_GB']],
    ]);
  });

  it('filters a blame by author and days, and exports it safely', () => {
    const rows = [
      row({}),
      row({
        pointer: '/b',
        path: 'b',
        author: 'Bob',
        time: '2025-04-02T23:00:00Z',
        value: '"=SUM(A1)"',
        message: 'say "hi"',
      }),
      row({ pointer: '/c', path: 'c', uncommitted: true, commit: '', time: null, author: 'me' }),
    ];
    expect(authorsOf(rows)).toEqual(['Ann', 'Bob', 'me']);
    expect(filterBlame(rows, { author: 'Bob', from: '', to: '' }).map((r) => r.path)).toEqual(['b']);
    expect(filterBlame(rows, { author: '', from: '2025-04-01', to: '2025-04-02' }).map((r) => r.path)).toEqual(['b']);
    expect(filterBlame(rows, { author: '', from: '', to: '2025-03-31' }).map((r) => r.path)).toEqual(['a']);
    const csv = blameCsv(rows).split('\r\n');
    expect(csv[0]).toBe('key,pointer,value,commit,author,email,time,message');
    expect(csv[2]).toBe(`b,/b,'=SUM(A1),c1,Bob,ann@example.com,2025-04-02T23:00:00Z,"say ""hi"""`);
    expect(csv[3]).toContain('(uncommitted)');
  });
});
