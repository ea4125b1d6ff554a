import { describe, expect, it } from 'vitest';
import { breadcrumbTrail } from './breadcrumbs';

describe('breadcrumbTrail', () => {
  it("is rooted at 'Domain' by default", () => {
    expect(breadcrumbTrail('/')).toEqual({ root: 'Domain', segments: [] });
    expect(breadcrumbTrail('/domain/4/dashboard')).toEqual({ root: 'Domain', segments: ['domain', '4', 'dashboard'] });
  });

  it("is rooted at 'Portal' when the URL contains portal", () => {
    expect(breadcrumbTrail('/domain/4/portal/9/branch/master/en_GB/dashboard').root).toBe('Portal');
  });

  it("is rooted at 'Admin' when the URL contains admin", () => {
    expect(breadcrumbTrail('/admin/users/3')).toEqual({ root: 'Admin', segments: ['admin', 'users', '3'] });
  });

  it('decodes segments', () => {
    expect(breadcrumbTrail('/domain/My%20Domain').segments).toEqual(['domain', 'My Domain']);
  });
});
