import { describe, expect, it } from 'vitest';
import { branchFromUrl, branchToUrl, offersReset } from './portal';

describe('portal helpers', () => {
  it('writes a slash in a branch as a colon in URLs and back (spec 1 §2.1)', () => {
    expect(branchToUrl('feature/summer/sale')).toBe('feature:summer:sale');
    expect(branchFromUrl('feature:summer:sale')).toBe('feature/summer/sale');
    expect(branchToUrl('master')).toBe('master');
  });

  it('offers Reset exactly for the codes of spec 1 §4.2', () => {
    for (const code of ['GIT_CONFLICTS', 'PORTAL_REBASE_ERROR', 'BRANCH_DOES_NOT_EXIST_IN_PORTAL', 19, '134', 112]) {
      expect(offersReset(code)).toBe(true);
    }
    for (const code of ['PORTAL_NOT_FOUND', 'INTERNAL_ERROR', 18, '500', '', undefined, null]) {
      expect(offersReset(code)).toBe(false);
    }
  });
});
