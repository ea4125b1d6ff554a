import { describe, expect, it } from 'vitest';
import {
  combineVersions,
  isWellFormedVersion,
  normalizeVersion,
  NOT_AVAILABLE,
  resolveVersions,
  shortVersion,
  VERSION_FORMAT_ERROR,
} from './version';

describe('normalizeVersion', () => {
  it('keeps only digits and dots', () => {
    expect(normalizeVersion('v3.4.10')).toBe('3.4.10');
    expect(normalizeVersion('3.4.10-SNAPSHOT')).toBe('3.4.10');
    expect(normalizeVersion(' 3.4.10\n')).toBe('3.4.10');
  });

  it('pads the last part of a four-part version to 3 digits', () => {
    expect(normalizeVersion('3.4.10.42')).toBe('3.4.10.042');
    expect(normalizeVersion('3.4.10.7')).toBe('3.4.10.007');
    expect(normalizeVersion('3.4.10.1234')).toBe('3.4.10.1234');
  });

  it('leaves three-part and other versions unpadded', () => {
    expect(normalizeVersion('3.4.1')).toBe('3.4.1');
    expect(normalizeVersion('1.2.3.4.5')).toBe('1.2.3.4.5');
  });
});

describe('isWellFormedVersion', () => {
  it('needs at least three numeric parts', () => {
    expect(isWellFormedVersion('3.4.10')).toBe(true);
    expect(isWellFormedVersion('3.4.10.042')).toBe(true);
    expect(isWellFormedVersion('3.4')).toBe(false);
    expect(isWellFormedVersion('3..4')).toBe(false);
    expect(isWellFormedVersion('')).toBe(false);
  });
});

describe('combineVersions', () => {
  it("is the front-end's three parts plus the back-end's padded fourth part", () => {
    expect(combineVersions('3.4.10', '3.4.10.042')).toBe('3.4.10.042');
    expect(combineVersions('3.4.11', '3.4.10.5')).toBe('3.4.11.005');
  });

  it('equals the front-end version when the back-end has three parts', () => {
    expect(combineVersions('3.4.10', '3.4.9')).toBe('3.4.10');
  });
});

describe('resolveVersions', () => {
  it('normalises and combines both versions', () => {
    expect(resolveVersions('3.4.10', '3.4.10.42')).toEqual({
      frontend: '3.4.10',
      backend: '3.4.10.042',
      combined: '3.4.10.042',
      error: null,
    });
  });

  it('shows N/A for a failed lookup', () => {
    expect(resolveVersions(null, '3.4.10.42')).toEqual({
      frontend: NOT_AVAILABLE,
      backend: '3.4.10.042',
      combined: NOT_AVAILABLE,
      error: null,
    });
    expect(resolveVersions('3.4.10', null).backend).toBe(NOT_AVAILABLE);
  });

  it('reports a version without three numeric parts as a format error', () => {
    const info = resolveVersions('3.4', '3.4.10.42');
    expect(info.error).toBe(VERSION_FORMAT_ERROR);
    expect(info.combined).toBe(NOT_AVAILABLE);
    expect(resolveVersions('3.4.10', 'unknown').error).toBe(
      'Versions are not in correct format. Please contact admin.',
    );
  });
});

describe('shortVersion', () => {
  it('is v plus the first three parts', () => {
    expect(shortVersion('3.4.10')).toBe('v3.4.10');
    expect(shortVersion('3.4.10.42')).toBe('v3.4.10');
  });
});
