import { describe, expect, it } from 'vitest';
import { expandPermission, hasPermission } from './permissions';

describe('permissions', () => {
  it('expands short codes', () => {
    expect(expandPermission('asset:c')).toBe('asset_create');
    expect(expandPermission('asset:r')).toBe('asset_read');
    expect(expandPermission('page:w')).toBe('page_write');
    expect(expandPermission('portal:d')).toBe('portal_delete');
    expect(expandPermission('portal:t')).toBe('portal_deactivate');
    expect(expandPermission('portal:a')).toBe('portal_approve');
    expect(expandPermission('link:l')).toBe('link_link');
    expect(expandPermission('domain:u')).toBe('domain_user_create');
    expect(expandPermission('domain:k')).toBe('domain_user_delete');
    expect(expandPermission('portal:ac')).toBe('portal_activate');
  });

  it('uses bare names as they are, in lower case', () => {
    expect(expandPermission('domain_user_create')).toBe('domain_user_create');
    expect(expandPermission('PAGE_READ')).toBe('page_read');
  });

  it('matches short and long forms', () => {
    const holder = { isAdmin: false, permissions: ['PAGE_READ', 'asset:w'] };
    expect(hasPermission(holder, 'page:r')).toBe(true);
    expect(hasPermission(holder, 'asset_write')).toBe(true);
    expect(hasPermission(holder, ['page:r', 'asset:w'])).toBe(true);
    expect(hasPermission(holder, ['page:r', 'asset:d'])).toBe(false);
    expect(hasPermission(holder, undefined)).toBe(true);
  });

  it('gives admins every permission', () => {
    expect(hasPermission({ isAdmin: true, permissions: [] }, 'anything:w')).toBe(true);
  });
});
