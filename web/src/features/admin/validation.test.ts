import { describe, expect, it } from 'vitest';
import {
  ADMIN_MESSAGES,
  alphanumericNameError,
  emailError,
  groupPermissions,
  usernameError,
  validateUserForm,
  permissionLabel,
} from './validation';
import { formatDateTime } from '../../lib/format';

describe('admin validation', () => {
  it('accepts usernames of 1 to 20 letters, digits, dashes and underscores, not starting with a dash', () => {
    for (const ok of ['a', 'bob_1', 'b-2', '_x', 'a'.repeat(20)]) expect(usernameError(ok)).toBeUndefined();
    for (const bad of ['', '-bob', ' bob', 'bo b', 'bob!', 'a'.repeat(21)]) {
      expect(usernameError(bad)).toBe(ADMIN_MESSAGES.username);
    }
  });

  it("checks e-mail addresses ('Please enter valid email address')", () => {
    expect(emailError('ada@example.com')).toBeUndefined();
    expect(emailError('')).toBe('The field is required');
    expect(emailError('ada@example')).toBe('Please enter valid email address');
    expect(emailError('ada example.com')).toBe('Please enter valid email address');
  });

  it('requires first and last name, not the middle name', () => {
    const values = { firstName: '', middleName: '', lastName: ' ', email: 'a@b.co', admin: false };
    expect(validateUserForm(values)).toEqual({ firstName: 'The field is required', lastName: 'The field is required' });
  });

  it('accepts alphanumeric names with spaces and underscores', () => {
    expect(alphanumericNameError('Airline A_1')).toBeUndefined();
    expect(alphanumericNameError('Air-line')).toBe(
      'Please enter only Alphanumeric characters, spaces and/or Underscores.',
    );
    expect(alphanumericNameError(' Leading')).toBe(ADMIN_MESSAGES.alphanumericName);
  });

  it("formats dates as 'MM/dd/y HH:mm'", () => {
    expect(formatDateTime('2026-03-05T04:07:00')).toBe('03/05/2026 04:07');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('names each permission in words, keeping unknown names as they are', () => {
    expect(permissionLabel('portal_settings_read')).toBe('View portal settings');
    expect(permissionLabel('domain_user_create')).toBe('Create domain users');
    expect(permissionLabel('category_link')).toBe('Put portals in categories');
    expect(permissionLabel('loadable_approve')).toBe('Approve loadables');
    expect(permissionLabel('page:r')).toBe('page:r');
  });

  it('groups the permission catalogue by resource prefix', () => {
    expect(groupPermissions(['domain_read', 'portal_settings_read', 'domain_write', 'page:r'])).toEqual([
      ['domain', ['domain_read', 'domain_write']],
      ['portal', ['portal_settings_read']],
      ['page', ['page:r']],
    ]);
  });
});
