import { describe, expect, it } from 'vitest';
import {
  validateAlphanumericName,
  validateNoLeadingWhitespace,
  validateNoSpaceName,
  validateNumber,
  validatePageName,
  validatePageParameter,
} from './validators';

describe('name rules of spec 2 §5 "Pages"', () => {
  it('page names: no leading dash or whitespace; letters, digits, space, underscore, dash', () => {
    const message = 'Please enter only alphanumeric characters, spaces, underscores and/or dashes.';
    expect(validatePageName('Home page_1-a')).toBeNull();
    expect(validatePageName('-home')).toBe(message);
    expect(validatePageName(' home')).toBe(message);
    expect(validatePageName('home!')).toBe(message);
    expect(validatePageName('home.html')).toBe(message);
  });

  it('names with special characters refused', () => {
    expect(validateAlphanumericName('My name_2')).toBeNull();
    expect(validateAlphanumericName('my-name')).toBe(
      'Please enter only Alphanumeric characters, spaces and/or Underscores.',
    );
  });

  it('no-space names: letters, digits, underscore, dot', () => {
    expect(validateNoSpaceName('file_1.json')).toBeNull();
    expect(validateNoSpaceName('a b')).toBe('Please enter only Alphanumeric characters and/or Underscores. ');
  });

  it("no leading whitespace, '-', '<' or '>'", () => {
    for (const bad of [' a', '\ta', '-a', '<a', '>a']) {
      expect(validateNoLeadingWhitespace(bad)).toBe('No Leading white spaces allowed');
    }
    expect(validateNoLeadingWhitespace('a -')).toBeNull();
    expect(validateNoLeadingWhitespace('')).toBeNull();
  });

  it('numbers with bounds', () => {
    expect(validateNumber('5', { min: 1, max: 10 })).toBeNull();
    expect(validateNumber('11', { max: 10 })).toBe('Maximum value allowed is 10');
    expect(validateNumber('0', { min: 1 })).toBe('Minimum value allowed is 1');
    expect(validateNumber('abc')).toBe('Please provide a number for the given field.');
  });

  it("a required page parameter: '{name} is required.'", () => {
    expect(validatePageParameter({ name: 'airport', required: true }, '')).toBe('airport is required.');
    expect(validatePageParameter({ name: 'airport' }, '  ')).toBe('airport is required.');
    expect(validatePageParameter({ name: 'gate', required: false }, '')).toBeNull();
    expect(validatePageParameter({ name: 'airport', required: true }, 'EGLL')).toBeNull();
  });
});
