import { describe, expect, it } from 'vitest';
import { plural } from './format';

describe('plural', () => {
  it('says one thing in the singular and every other count in the plural', () => {
    expect(plural(1, 'e-mail')).toBe('1 e-mail');
    expect(plural(0, 'e-mail')).toBe('0 e-mails');
    expect(plural(2, 'portal')).toBe('2 portals');
    expect(plural(3, 'child', 'children')).toBe('3 children');
  });
});
