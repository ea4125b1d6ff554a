import { describe, expect, it } from 'vitest';
import { formatSize, plural } from './format';

describe('plural', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(plural(1, 'e-mail')).toBe('1 e-mail');
    expect(plural(0, 'e-mail')).toBe('0 e-mails');
    expect(plural(2, 'portal')).toBe('2 portals');
    expect(plural(3, 'child', 'children')).toBe('3 children');
  });
});

describe('formatSize', () => {
  it('uses B, KB, MB, GB, TB at 1024 with 2 decimals', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(1024)).toBe('1.00 KB');
    expect(formatSize(1536)).toBe('1.50 KB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5.00 MB');
    expect(formatSize(419430400)).toBe('400.00 MB');
    expect(formatSize(3 * 1024 ** 3)).toBe('3.00 GB');
    expect(formatSize(2 * 1024 ** 4)).toBe('2.00 TB');
    expect(formatSize(2048 * 1024 ** 4)).toBe('2048.00 TB');
  });

  it('shows nothing for a missing or negative size', () => {
    expect(formatSize(undefined)).toBe('');
    expect(formatSize(null)).toBe('');
    expect(formatSize(-1)).toBe('');
  });
});
