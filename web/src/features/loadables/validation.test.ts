import { describe, expect, it } from 'vitest';
import { LOADABLE_MESSAGES as MSG } from './messages';
import { detailsErrors, gitRefError, nameError, partNumberError, typeError, versionPrefixError } from './validation';

describe('loadable rules (the server’s)', () => {
  it('checks the name', () => {
    expect(nameError('crew-news-portal-20261123')).toBeNull();
    expect(nameError('a')).toBeNull();
    expect(nameError('-a')).toBe(MSG.name);
    expect(nameError('a b')).toBe(MSG.name);
    expect(nameError('x'.repeat(65))).toBe(MSG.name);
  });
  it('checks the part number', () => {
    expect(partNumberError('PW-POR-CREW')).toBeNull();
    expect(partNumberError('AB')).toBe(MSG.partNumber);
    expect(partNumberError('pw-1')).toBe(MSG.partNumber);
    expect(partNumberError('-PW1')).toBe(MSG.partNumber);
  });
  it('checks the version prefix major.minor', () => {
    expect(versionPrefixError('1.0')).toBeNull();
    expect(versionPrefixError('999.12')).toBeNull();
    expect(versionPrefixError('01.0')).toBe(MSG.versionPrefix);
    expect(versionPrefixError('1.0.0')).toBe(MSG.versionPrefix);
    expect(versionPrefixError('1000.0')).toBe(MSG.versionPrefix);
  });
  it('checks the type and the reference', () => {
    expect(typeError('MEDIA')).toBeNull();
    expect(typeError('OTHER')).toBe(MSG.type);
    expect(gitRefError(' ')).toBe(MSG.gitRef);
    expect(detailsErrors({ name: 'n', partNumber: 'x', versionPrefix: '1' })).toEqual({
      partNumber: MSG.partNumber,
      versionPrefix: MSG.versionPrefix,
    });
  });
});
